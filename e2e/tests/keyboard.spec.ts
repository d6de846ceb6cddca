import { randomUUID } from 'node:crypto';
import { runAxe } from '../axe.ts';
import { expect, test } from '../fixtures.ts';
import { insertPerson, serverDataDir } from '../session.ts';
import { apiAs, browserOf } from './calltree-helpers.ts';

// Keyboard use (issue 15, point 11): a skip link, the topic's heading takes the focus and the
// composer is one Tab away, the posts are a feed of articles with the unread divider between them,
// and `?` lists the shortcuts.

/** A person of their own, with a members-only topic of `count` posts by someone else in it. */
async function topicWithUnread(browser: import('@playwright/test').Browser, base: string, count: number) {
  const reader = insertPerson(serverDataDir(), `Keyboard Reader ${randomUUID().slice(0, 6)}`);
  const writer = insertPerson(serverDataDir(), `Keyboard Writer ${randomUUID().slice(0, 6)}`);
  const page = await browserOf(browser, base, reader.id, '/');
  await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
  const title = `Keys ${randomUUID().slice(0, 8)}`;
  const topic = await apiAs<{ id: string }>(page, base, reader.id, 'POST', '/topics', {
    title,
    visibility: 'members',
    memberIds: [writer.id],
  });
  await apiAs(page, base, reader.id, 'POST', `/topics/${topic.id}/posts`, {
    clientId: randomUUID(),
    body: 'My own first post',
  });
  for (let n = 2; n <= count; n++) {
    await apiAs(page, base, writer.id, 'POST', `/topics/${topic.id}/posts`, {
      clientId: randomUUID(),
      body: `Unread post ${n}`,
    });
  }
  return { page, topic, title };
}

test('the first Tab offers "Skip to content", which moves the focus to the screen', async ({
  browser,
  baseURL,
}) => {
  const person = insertPerson(serverDataDir(), 'Skip Link Person');
  const page = await browserOf(browser, baseURL ?? '', person.id, '/');
  await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
  // Home has drawn all of itself (its parts load their texts and lists after the heading): a part
  // still loading could take the screen's place for a moment, and the focus with it.
  await expect(page.getByRole('group', { name: 'Which topics' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Direct messages' }).getByRole('status')).toBeVisible();
  await page.waitForLoadState('networkidle');
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  // Hidden until focused, then seen: not clipped to a pixel.
  const box = await skip.boundingBox();
  expect(box?.width ?? 0).toBeGreaterThan(40);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();
  // The next Tab is in the screen, past the app bar.
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.querySelector('main')?.contains(document.activeElement))).toBe(
    true,
  );
  await expect(skip).not.toBeInViewport({ ratio: 0.5 });
  // Focus rings are kept: a focused button draws MUI's focus-visible style.
  await page.getByRole('button', { name: 'Account menu' }).focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Account menu' })).toHaveClass(/Mui-focusVisible/);
  await page.context().close();
});

test('opening a topic puts the focus on its heading; one Tab and Enter reach the composer; J and K move between posts', async ({
  browser,
  baseURL,
}) => {
  const { page, topic, title } = await topicWithUnread(browser, baseURL ?? '', 6);
  await page.goto(`/topics/${topic.id}`);
  const heading = page.getByRole('heading', { name: title, level: 1 });
  await expect(heading).toBeFocused();
  await page.keyboard.press('Tab');
  const toComposer = page.getByRole('link', { name: 'Go to the message box' });
  await expect(toComposer).toBeFocused();
  await expect(toComposer).toBeInViewport();
  await page.keyboard.press('Enter');
  const message = page.getByRole('combobox', { name: 'Message' });
  await expect(message).toBeFocused();
  await page.keyboard.type('Written without the mouse');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('article').filter({ hasText: 'Written without the mouse' })).toBeVisible();

  // J / K outside the text field: the focus goes from post to post; C comes back to the composer.
  await heading.focus();
  await page.keyboard.press('j');
  const focusedPost = () => page.evaluate(() => document.activeElement?.closest('article')?.id ?? null);
  const first = await focusedPost();
  expect(first).toMatch(/^post-\d+$/);
  await page.keyboard.press('j');
  const second = await focusedPost();
  expect(Number(second?.slice(5))).toBe(Number(first?.slice(5)) + 1);
  await page.keyboard.press('k');
  expect(await focusedPost()).toBe(first);
  await page.keyboard.press('c');
  await expect(message).toBeFocused();
  // Typed into the field, the keys are letters.
  await page.keyboard.type('jk?');
  await expect(message).toHaveValue('jk?');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.context().close();
});

test('the posts are a feed of articles; the unread divider is between two of them, in none', async ({
  browser,
  baseURL,
}) => {
  const { page, topic } = await topicWithUnread(browser, baseURL ?? '', 4);
  await page.goto(`/topics/${topic.id}`);
  const feed = page.getByRole('feed', { name: 'Posts' });
  await expect(feed.getByRole('article')).toHaveCount(4);
  const articles = await feed
    .getByRole('article')
    .evaluateAll((all) =>
      all.map((a) => ({ pos: a.getAttribute('aria-posinset'), size: a.getAttribute('aria-setsize') })),
    );
  expect(articles).toEqual([1, 2, 3, 4].map((n) => ({ pos: String(n), size: '4' })));

  const divider = page.getByText('New since you last looked');
  await expect(divider).toBeVisible();
  const place = await divider.evaluate((el) => {
    const articles = Array.from(document.querySelectorAll('[role="feed"] article'));
    const before = articles.filter((a) => a.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING);
    return { inArticle: el.closest('article') !== null, after: before.at(-1)?.id, count: before.length };
  });
  // Above the first post someone else wrote: after my own post 1, before post 2.
  expect(place).toEqual({ inArticle: false, after: 'post-1', count: 1 });
  // Assistive technology hears it as the first unread post's description.
  await expect(feed.getByRole('article').nth(1)).toHaveAccessibleDescription('New since you last looked');

  // The feed holds only articles, as WAI-ARIA asks (axe's aria-required-children).
  const axe = await runAxe(page, { type: 'rule', values: ['aria-required-children'] }, '[role="feed"]');
  expect(axe.violations).toEqual([]);
  await page.context().close();
});

test('? opens the keyboard shortcuts, in English and Thai, and / goes to the search on Home', async ({
  browser,
  baseURL,
}) => {
  const person = insertPerson(serverDataDir(), 'Shortcut Person');
  const page = await browserOf(browser, baseURL ?? '', person.id, '/');
  await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
  const search = page.getByRole('searchbox');
  await expect(search).toBeVisible();
  await page.keyboard.press('/');
  await expect(search).toBeFocused();
  // Typed in a field, ? is a question mark.
  await page.keyboard.type('?');
  await expect(search).toHaveValue('?');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await search.fill('');
  await search.blur();

  await page.keyboard.press('?');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(dialog).toBeVisible();
  for (const does of [
    'Jump to a topic, conversation or person',
    'Show these keyboard shortcuts',
    'Search (on Home)',
    'Next or previous post (in a topic)',
    'Write a post (in a topic)',
    'Close a dialog or menu',
  ]) {
    await expect(dialog.getByRole('definition').filter({ hasText: does })).toBeVisible();
  }
  await expect(dialog.getByRole('term').filter({ hasText: 'Ctrl+K' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // In Thai.
  await page.getByRole('button', { name: 'ไทย' }).click();
  await expect(page.getByRole('heading', { name: 'หน้าแรก', level: 1 })).toBeVisible();
  await page.locator('body').focus();
  await page.keyboard.press('?');
  const thai = page.getByRole('dialog', { name: 'แป้นพิมพ์ลัด' });
  await expect(thai).toBeVisible();
  await expect(thai.getByText('แสดงแป้นพิมพ์ลัดเหล่านี้')).toBeVisible();
  await thai.getByRole('button', { name: 'ปิด' }).click();
  await expect(thai).toBeHidden();
  await page.context().close();
});
