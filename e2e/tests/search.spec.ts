import { randomUUID } from 'node:crypto';
import { apiAs } from '../api.ts';
import { expect, test } from '../fixtures.ts';
import { insertPosts } from '../posts.ts';
import { accessTokenFor, insertPerson, serverDataDir, signInAs } from '../session.ts';

/** A word no other test writes. */
const unique = (prefix: string) => `${prefix}${randomUUID().replace(/-/g, '').slice(0, 8)}`;

const post = (base: string, token: string, topicId: string, body: string) =>
  apiAs<{ id: string; number: number }>(base, token, 'POST', `/topics/${topicId}/posts`, {
    clientId: randomUUID(),
    body,
  });

test('a search shows the snippet as text with the word marked, and its result opens the long topic at that post, marked', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const base = baseURL ?? '';
  const me = await signInAs(page, base, 'Malee Searcher');
  const somchai = insertPerson(serverDataDir(), 'Somchai Jaidee');
  const word = unique('fuel');
  const topic = await apiAs<{ id: string }>(base, me.token, 'POST', '/topics', {
    title: 'Generator log',
    visibility: 'organisation',
  });
  const first = await post(
    base,
    me.token,
    topic.id,
    `**Diesel** delivery for the ${word} generator: ask @[Somchai Jaidee](user:${somchai.id}), see [the sheet](https://example.com/hidden-target)`,
  );
  expect(first.number).toBe(1);
  // 300 newer posts: the post is far older than the topic's first page.
  insertPosts(serverDataDir(), topic.id, me.id, 300, 'Entry');

  await page.getByRole('searchbox', { name: 'Search topics, posts and comments' }).fill(word);
  const results = page.getByRole('list', { name: 'Search results' });
  const hit = results.getByRole('link').filter({ hasText: 'Post in Generator log' });
  await expect(hit).toHaveCount(1);
  await expect(hit).toContainText(
    `Diesel delivery for the ${word} generator: ask @Somchai Jaidee, see the sheet`,
  );
  await expect(hit).not.toContainText('**');
  await expect(hit).not.toContainText('example.com');
  await expect(hit).not.toContainText('user:');
  await expect(hit).not.toContainText(somchai.id);
  await expect(hit.locator('mark')).toHaveText(word);
  // The search is in the address: Back from the topic comes back to it.
  await expect(page).toHaveURL(new RegExp(`[?&]q=${word}`));

  await hit.click();
  await expect(page).toHaveURL(new RegExp(`/topics/${topic.id}#post-1$`));
  const marked = page.locator('article[aria-current="location"]');
  await expect(marked).toContainText(`Diesel delivery for the ${word} generator`);
  await expect(marked).toBeInViewport();
  await expect(page.getByRole('article').filter({ hasText: /Entry 301(?!\d)/ })).toHaveCount(0);

  await page.goBack();
  const searchbox = page.getByRole('searchbox', { name: 'Search topics, posts and comments' });
  await expect(searchbox).toHaveValue(word);
  await expect(results.getByRole('link')).toHaveCount(1);

  // A comment's result opens its post with the comment shown, marked.
  const reply = unique('tanker');
  await apiAs(base, me.token, 'POST', `/posts/${first.id}/comments`, {
    clientId: randomUUID(),
    body: `the _${reply}_ arrives at noon`,
  });
  await searchbox.fill(reply);
  const commentHit = results.getByRole('link').filter({ hasText: 'Comment in Generator log' });
  await expect(commentHit).toContainText(`the ${reply} arrives at noon`);
  await commentHit.click();
  await expect(page).toHaveURL(new RegExp(`/topics/${topic.id}\\?comment=[^#]+#post-1$`));
  const linked = page.locator('article[aria-current="location"] li[aria-current="location"]');
  await expect(linked).toContainText(`the ${reply} arrives at noon`);
  await expect(linked).toBeInViewport();
});

test('the person filter narrows the results to what one person wrote', async ({ page, baseURL }) => {
  const base = baseURL ?? '';
  const me = await signInAs(page, base, 'Pim Filters');
  const wanida = insertPerson(serverDataDir(), 'Wanida Khemkaeo');
  const wanidaToken = accessTokenFor(serverDataDir(), base, wanida.id);
  const word = unique('pump');
  const topic = await apiAs<{ id: string }>(base, me.token, 'POST', '/topics', {
    title: 'Pump station',
    visibility: 'organisation',
  });
  await post(base, me.token, topic.id, `the ${word} in building A is fixed`);
  await post(base, wanidaToken, topic.id, `the ${word} in building B hums again`);

  await page.getByRole('searchbox', { name: 'Search topics, posts and comments' }).fill(word);
  const hits = page.getByRole('list', { name: 'Search results' }).getByRole('link');
  await expect(hits).toHaveCount(2);

  const filters = page.getByRole('group', { name: 'Filters' });
  await filters.getByRole('button', { name: 'Person' }).click();
  const menu = page.getByRole('dialog', { name: 'Person' });
  await menu.getByRole('combobox', { name: 'Find a person' }).fill('Wanida Khem');
  await page.getByRole('option', { name: /Wanida Khemkaeo/ }).click();
  await expect(menu).toBeHidden();
  await expect(filters.getByRole('button', { name: 'Person: Wanida Khemkaeo' })).toBeVisible();
  await expect(hits).toHaveCount(1);
  await expect(hits).toContainText('building B hums again');
  await expect(hits).toContainText('Wanida Khemkaeo');
  await expect(page).toHaveURL(new RegExp(`author=${wanida.id}`));

  await filters.getByRole('button', { name: 'Remove filter Person', exact: true }).click();
  await expect(hits).toHaveCount(2);
});

test('Ctrl+K opens "Jump to", finds a topic by part of a Thai word, and Enter opens it', async ({
  page,
  baseURL,
}) => {
  const base = baseURL ?? '';
  const me = await signInAs(page, base, 'Anan Switcher');
  const tag = unique('drill');
  const topic = await apiAs<{ id: string }>(base, me.token, 'POST', '/topics', {
    title: `ซ้อมอพยพน้ำท่วม ${tag}`,
    visibility: 'members',
  });
  await expect(page.getByRole('heading', { name: 'Home' })).toBeVisible();

  await page.keyboard.press('Control+k');
  const dialog = page.getByRole('dialog', { name: 'Jump to' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  await page.keyboard.press('Control+k');
  const field = dialog.getByRole('combobox', { name: 'Topic, conversation or person' });
  await expect(field).toBeFocused();
  await field.fill(`อพยพ ${tag}`);
  const option = dialog.getByRole('option', { name: new RegExp(tag) });
  await expect(option).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowDown');
  await expect(option).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/topics/${topic.id}$`));
  await expect(page.getByRole('heading', { name: `ซ้อมอพยพน้ำท่วม ${tag}` })).toBeVisible();
});

test('"Jump to" finds a person and opens their profile card', async ({ page, baseURL }) => {
  const base = baseURL ?? '';
  await signInAs(page, base, 'Dao Jumper');
  const name = `Kanya ${unique('Jumpto')}`;
  insertPerson(serverDataDir(), name);
  await expect(page.getByRole('heading', { name: 'Home' })).toBeVisible();

  await page.keyboard.press('Control+k');
  const dialog = page.getByRole('dialog', { name: 'Jump to' });
  await dialog.getByRole('combobox', { name: 'Topic, conversation or person' }).fill(name);
  const person = dialog
    .getByRole('group', { name: 'People' })
    .getByRole('option', { name: new RegExp(name) });
  await expect(person).toBeVisible();
  // The only match: Enter (or a click) opens their card over the list.
  await expect(person).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name })).toBeVisible();
});
