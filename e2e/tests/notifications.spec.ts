import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { apiAs } from '../api.ts';
import { expect, test } from '../fixtures.ts';
import { apiPerson, personPage } from '../session.ts';

const unique = (what: string) => `${what} ${randomUUID().slice(0, 8)}`;

interface Listed {
  items: Array<{ kind: string; data: Record<string, unknown> }>;
  unreadCount: number;
}

/** The bell, by its name: "Notifications" or "Notifications, N unread". */
const bell = (page: Page, unread: number) =>
  page.getByRole('button', {
    name: unread > 0 ? `Notifications, ${unread} unread` : 'Notifications',
    exact: true,
  });

async function post(base: string, token: string, topicId: string, body: string, mentions: string[] = []) {
  return apiAs<{ id: string; number: number }>(base, token, 'POST', `/topics/${topicId}/posts`, {
    clientId: randomUUID(),
    body,
    mentions,
  });
}

test('a mention appears in the other person’s bell live and opens the post', async ({ browser, baseURL }) => {
  test.setTimeout(60_000);
  const base = baseURL ?? '';
  const malee = await personPage(browser, base, 'Malee Mention', { width: 1280, height: 900 });
  const somchai = await apiPerson(browser, base, 'Somchai Mention');
  const title = unique('Safety drills');
  const topic = await apiAs<{ id: string }>(base, somchai.token, 'POST', '/topics', {
    title,
    visibility: 'organisation',
  });
  for (let i = 1; i <= 12; i++) await post(base, somchai.token, topic.id, `Earlier note ${i}`);

  const page = malee.page;
  await expect(page.getByRole('status', { name: 'Live updates on' })).toBeVisible();
  await expect(bell(page, 0)).toBeVisible();
  const mention = await post(
    base,
    somchai.token,
    topic.id,
    `@[Malee Mention](user:${malee.id}) please check the assembly point`,
    [malee.id],
  );
  await post(base, somchai.token, topic.id, 'A later note that pushes the mention up');

  // Live: no reload, and the tab's title counts it too.
  await expect(bell(page, 1)).toBeVisible();
  await expect(page).toHaveTitle(/^\(1\) /);
  await bell(page, 1).click();
  const menu = page.getByRole('menu', { name: 'Notifications' });
  const item = menu.getByRole('menuitem', { name: new RegExp(`Somchai Mention mentioned you in ${title}`) });
  await expect(item).toContainText('@Malee Mention please check the assembly point');
  await expect(item.getByRole('img', { name: 'Unread' })).toBeVisible();
  // Opening the menu alone marks nothing read.
  expect((await apiAs<Listed>(base, malee.token, 'GET', '/notifications')).unreadCount).toBe(1);
  await item.click();

  await expect(page).toHaveURL(new RegExp(`/topics/${topic.id}#post-${mention.number}$`));
  const marked = page.locator('article[aria-current="location"]');
  await expect(marked).toContainText('please check the assembly point');
  await expect(marked).toBeInViewport();
  // Read once opened: the badge and the title's count are gone.
  await expect(bell(page, 0)).toBeVisible();
  await expect(page).not.toHaveTitle(/^\(\d+\) /);
  await malee.context.close();
});

test('a comment on a followed post notifies, and opens the post’s comments on it', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const base = baseURL ?? '';
  const malee = await personPage(browser, base, 'Malee Comment', { width: 1280, height: 900 });
  const somchai = await apiPerson(browser, base, 'Somchai Comment');
  const title = unique('Site office');
  const topic = await apiAs<{ id: string }>(base, malee.token, 'POST', '/topics', {
    title,
    visibility: 'organisation',
  });
  // Her own post rings her bell; her later posts push it out of view (and notify nobody).
  const first = await post(base, malee.token, topic.id, 'Who has the key to the store room?');
  for (let i = 1; i <= 15; i++) await post(base, malee.token, topic.id, `Another question ${i}`);

  const page = malee.page;
  await expect(page.getByRole('status', { name: 'Live updates on' })).toBeVisible();
  await apiAs(base, somchai.token, 'POST', `/posts/${first.id}/comments`, {
    clientId: randomUUID(),
    body: 'An older remark',
  });
  const comment = await apiAs<{ id: string }>(base, somchai.token, 'POST', `/posts/${first.id}/comments`, {
    clientId: randomUUID(),
    body: 'The key is at reception',
  });

  await expect(bell(page, 2)).toBeVisible();
  await bell(page, 2).click();
  const menu = page.getByRole('menu', { name: 'Notifications' });
  const item = menu
    .getByRole('menuitem', { name: new RegExp(`Somchai Comment commented on a post in ${title}`) })
    .filter({ hasText: 'The key is at reception' });
  await item.click();

  await expect(page).toHaveURL(
    new RegExp(`/topics/${topic.id}\\?comment=${comment.id}#post-${first.number}$`),
  );
  const thePost = page.locator('article[aria-current="location"]');
  await expect(thePost).toContainText('Who has the key to the store room?');
  const comments = thePost.getByRole('region', { name: 'Comments' });
  const linked = comments.locator('li[aria-current="location"]');
  await expect(linked).toHaveAccessibleName('Comment by Somchai Comment');
  await expect(linked).toContainText('The key is at reception');
  await expect(linked).toBeInViewport();
  await expect(comments.getByRole('listitem', { name: 'Comment by Somchai Comment' })).toHaveCount(2);
  await expect(bell(page, 1)).toBeVisible();

  // "Mark all as read" clears the rest.
  await bell(page, 1).click();
  await page.getByRole('button', { name: 'Mark all as read' }).click();
  await expect(
    page.getByRole('menu', { name: 'Notifications' }).getByRole('img', { name: 'Unread' }),
  ).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(bell(page, 0)).toBeVisible();
  await expect
    .poll(async () => (await apiAs<Listed>(base, malee.token, 'GET', '/notifications')).unreadCount)
    .toBe(0);
  await malee.context.close();
});

test('a muted topic stays quiet', async ({ browser, baseURL }) => {
  test.setTimeout(60_000);
  const base = baseURL ?? '';
  const malee = await personPage(browser, base, 'Malee Muted', { width: 1280, height: 900 });
  const somchai = await apiPerson(browser, base, 'Somchai Muted');
  const muted = unique('Noisy roster');
  const control = unique('Control topic');
  const quiet = await apiAs<{ id: string }>(base, somchai.token, 'POST', '/topics', {
    title: muted,
    visibility: 'members',
    memberIds: [malee.id],
  });
  const other = await apiAs<{ id: string }>(base, somchai.token, 'POST', '/topics', {
    title: control,
    visibility: 'organisation',
  });

  const page = malee.page;
  await page.goto(`/topics/${quiet.id}`);
  await expect(page.getByRole('heading', { name: muted, level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Topic menu' }).click();
  // Members of a members-only topic hear of every new post until they choose otherwise.
  await expect(page.getByRole('menuitemradio', { name: 'All new posts' })).toHaveAttribute(
    'aria-checked',
    'true',
  );
  const saved = page.waitForResponse(
    (r) => r.url().endsWith(`/api/topics/${quiet.id}/notifications`) && r.request().method() === 'PUT',
  );
  await page.getByRole('menuitemradio', { name: 'Muted' }).click();
  expect((await saved).ok()).toBe(true);
  await page.getByRole('button', { name: 'Topic menu' }).click();
  await expect(page.getByRole('menuitemradio', { name: 'Muted' })).toHaveAttribute('aria-checked', 'true');
  await page.keyboard.press('Escape');
  await page.goto('/');
  await expect(page.getByRole('status', { name: 'Live updates on' })).toBeVisible();
  const before = (await apiAs<Listed>(base, malee.token, 'GET', '/notifications')).unreadCount;

  await post(base, somchai.token, quiet.id, 'Roster changes for next week');
  await post(base, somchai.token, other.id, `@[Malee Muted](user:${malee.id}) can you cover Friday?`, [
    malee.id,
  ]);

  // The control arrives; the muted topic's post, written before it, did not.
  await expect(bell(page, before + 1)).toBeVisible();
  await bell(page, before + 1).click();
  const menu = page.getByRole('menu', { name: 'Notifications' });
  await expect(menu.getByRole('menuitem', { name: new RegExp(`mentioned you in ${control}`) })).toBeVisible();
  await expect(menu.getByRole('menuitem', { name: new RegExp(`posted in ${muted}`) })).toHaveCount(0);
  const listed = await apiAs<Listed>(base, malee.token, 'GET', '/notifications');
  expect(listed.items.filter((n) => n.data.topicId === quiet.id && n.kind === 'topic.post')).toEqual([]);
  await malee.context.close();
});
