import type { Page } from '@playwright/test';
import { apiAs } from '../api.ts';
import { expect, test } from '../fixtures.ts';
import { insertPosts } from '../posts.ts';
import { serverDataDir, signInAs } from '../session.ts';

/** The post whose text starts with `Entry <n>` (post numbers here have four digits or fewer). */
const entry = (page: Page, n: number) =>
  page.getByRole('article').filter({ hasText: new RegExp(`Entry ${n}(?!\\d)`) });

/**
 * Scrolls the list of posts by `pixels` (negative: up) as the mouse wheel would: the wheel event the
 * reader's hand makes, then the scroll it causes, at once. (Playwright's real wheel scrolls smoothly
 * and later: on a busy machine its last turns moved the list after the test had gone on to the jumps.)
 */
const scrollPosts = (page: Page, pixels: number) =>
  page.locator('[data-virtuoso-scroller]').evaluate((scroller, by) => {
    scroller.dispatchEvent(new WheelEvent('wheel', { deltaY: by, bubbles: true, cancelable: true }));
    scroller.scrollBy({ top: by });
  }, pixels);

/** The numbers of the posts at least partly in the list's view. */
const postsInView = (page: Page) =>
  page.locator('[data-virtuoso-scroller]').evaluate((scroller) => {
    const view = scroller.getBoundingClientRect();
    return Array.from(scroller.querySelectorAll('article[id^="post-"]'))
      .filter((article) => {
        const box = article.getBoundingClientRect();
        return box.bottom > view.top && box.top < view.bottom;
      })
      .map((article) => Number(article.id.slice('post-'.length)));
  });

/** Counts the requests for the topic's posts from now on. */
function countPostRequests(page: Page, topicId: string) {
  const seen: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes(`/api/topics/${topicId}/posts`)) seen.push(request.url());
  });
  return {
    urls: () => [...seen],
    count: () => seen.length,
    reset: () => seen.splice(0),
  };
}

test('a link deep in a 3,000-post topic opens on its post, pages both ways from it and jumps to either end in one request', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const base = baseURL ?? '';
  const me = await signInAs(page, base, 'Niran Longread');
  const topic = await apiAs<{ id: string }>(base, me.token, 'POST', '/topics', {
    title: 'Three thousand updates',
    visibility: 'members',
  });
  insertPosts(serverDataDir(), topic.id, me.id, 3000, 'Entry');
  const requests = countPostRequests(page, topic.id);

  // The link (as Teams cards and notifications give it) opens the topic at post 1500, marked and
  // focused for a screen reader; the page around it came in one request, not 50 pages from the newest.
  await page.goto(`/topics/${topic.id}#post-1500`);
  const marked = page.locator('article[aria-current="location"]');
  await expect(marked).toContainText('Entry 1500');
  await expect(marked).toBeInViewport();
  await expect(marked).toBeFocused();
  // One request found the post, and no other: the list asks for the pages either side only once the
  // reader scrolls (placing the post in the middle moved the list, which used to ask for both).
  await page.waitForLoadState('networkidle');
  expect(requests.urls()).toEqual([expect.stringContaining('around=1500')]);
  await expect(entry(page, 3000)).toHaveCount(0);
  await expect(entry(page, 1)).toHaveCount(0);

  // Scrolling up brings older posts than the first page held (1486 to 1515), scrolling down newer ones.
  await expect(async () => {
    await scrollPosts(page, -420);
    expect(Math.min(...(await postsInView(page)))).toBeLessThanOrEqual(1470);
  }).toPass({ timeout: 40_000, intervals: [250] });
  await expect(async () => {
    await scrollPosts(page, 420);
    expect(Math.max(...(await postsInView(page)))).toBeGreaterThanOrEqual(1525);
  }).toPass({ timeout: 60_000, intervals: [250] });

  // The jump to the first post shows post 1 and the beginning of the topic, in one request (once the
  // pages asked for while scrolling have come).
  await page.waitForLoadState('networkidle');
  requests.reset();
  await page.getByRole('button', { name: 'Jump to the first post' }).click();
  await expect(page.getByText('Entry 1', { exact: true })).toBeVisible();
  await expect(page.getByText('This is the beginning of the topic.')).toBeVisible();
  // One request brought the top; the list may then ask for the page below it, ahead of the reader.
  expect(requests.urls()[0]).toContain('from=oldest');
  expect(requests.count()).toBeLessThanOrEqual(2);
  await expect(page).toHaveURL(new RegExp(`/topics/${topic.id}$`));

  // And the jump to the latest shows the newest post, in one request.
  await page.waitForLoadState('networkidle');
  requests.reset();
  await page.getByRole('button', { name: 'Jump to the latest' }).click();
  await expect(entry(page, 3000)).toBeInViewport();
  // The first request is the newest page (no cursor, no post to centre on).
  expect(requests.urls()[0]).toMatch(/\/posts\?limit=\d+$/);
  expect(requests.count()).toBeLessThanOrEqual(2);
});

test('a post link the topic does not have says so and opens at the newest post', async ({
  page,
  baseURL,
}) => {
  const base = baseURL ?? '';
  const me = await signInAs(page, base, 'Ploy Missing');
  const topic = await apiAs<{ id: string }>(base, me.token, 'POST', '/topics', {
    title: 'Short topic',
    visibility: 'members',
  });
  insertPosts(serverDataDir(), topic.id, me.id, 40, 'Entry');
  await page.goto(`/topics/${topic.id}#post-41`);
  await expect(page.getByText('That post is not in this topic.')).toBeVisible();
  await expect(entry(page, 40)).toBeInViewport();
  await expect(page.locator('article[aria-current="location"]')).toHaveCount(0);
});
