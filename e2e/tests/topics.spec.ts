import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { apiAs } from '../api.ts';
import { expect, test } from '../fixtures.ts';
import { personPage, signInAs } from '../session.ts';

// A 2x2 PNG: the server types it from its content and the app shows it inline.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg==',
  'base64',
);

/** A members-only topic of the person's with `count` posts, numbered 1 to `count`, written through the API. */
async function topicWithPosts(
  base: string,
  token: string,
  title: string,
  count: number,
  body: (n: number) => string,
) {
  const topic = await apiAs<{ id: string }>(base, token, 'POST', '/topics', { title, visibility: 'members' });
  for (let n = 1; n <= count; n++) {
    await apiAs(base, token, 'POST', `/topics/${topic.id}/posts`, { clientId: randomUUID(), body: body(n) });
  }
  return topic;
}

const post = (page: Page, text: string | RegExp) => page.getByRole('article').filter({ hasText: text });

test('two people hold a conversation: topic, post with an image, comment, reaction, edit, delete, bell, unread', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const base = baseURL ?? '';
  const anong = await personPage(browser, base, 'Anong Srisuk');
  const boon = await personPage(browser, base, 'Boon Chaiyo');
  const title = `Site visit ${randomUUID().slice(0, 8)}`;

  // Anong creates an organisation-wide topic.
  const a = anong.page;
  await a.getByRole('link', { name: 'New topic' }).click();
  await expect(a.getByRole('heading', { name: 'New topic', level: 1 })).toBeVisible();
  await a.getByRole('button', { name: 'Create' }).click();
  await expect(a.getByText('Give the topic a title.')).toBeVisible();
  await a.getByLabel('Title').fill(title);
  await a.getByLabel('Description').fill('Plans for **Monday**');
  await a.getByLabel('Everyone in the organisation').check();
  await a.getByRole('button', { name: 'Create' }).click();
  await expect(a).toHaveURL(/\/topics\/[0-9a-f-]+$/);
  const topicUrl = a.url();
  await expect(a.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await expect(a.getByText('No posts yet. Write the first one below.')).toBeVisible();

  // A Markdown post sent with Enter; Shift+Enter makes a new line.
  const message = a.getByLabel('Message');
  await message.fill('Hello **team**');
  await message.press('Shift+Enter');
  await message.pressSequentially('Bring [the plan](https://example.com/plan)');
  await message.press('Enter');
  const first = post(a, 'Hello team');
  await expect(first.locator('strong', { hasText: 'team' })).toBeVisible();
  const link = first.getByRole('link', { name: 'the plan' });
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', /noopener/);
  await expect(message).toHaveValue('');

  // A post with an image attachment: uploaded first, then shown inline from a blob URL.
  await a
    .getByTestId('composer-file-input')
    .setInputFiles({ name: 'site.png', mimeType: 'image/png', buffer: PNG });
  await expect(a.getByRole('listitem').filter({ hasText: 'site.png' })).toBeVisible();
  await message.fill('The site from above');
  await a.getByRole('button', { name: 'Post', exact: true }).click();
  const imagePost = post(a, 'The site from above');
  const image = imagePost.getByRole('img', { name: 'site.png' });
  await expect(image).toBeVisible();
  await expect(image).toHaveAttribute('src', /^blob:/);
  expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(2);

  // Boon sees the topic with two unread posts, and the divider in it.
  const b = boon.page;
  await b.getByRole('button', { name: 'All topics' }).click();
  const row = b.getByRole('link').filter({ hasText: title });
  await expect(row.getByText('2 unread')).toBeVisible();
  await row.click();
  // The divider is drawn between the posts (in none of them); a feed holds only articles, so
  // assistive technology hears it as the first unread post's description (keyboard.spec.ts).
  await expect(b.getByText('New since you last looked')).toBeVisible();
  await expect(post(b, 'Hello team')).toBeVisible();
  await expect(post(b, 'Hello team')).toHaveAccessibleDescription('New since you last looked');

  // Boon comments on the first post and reacts to it.
  const boonsView = post(b, 'Hello team');
  await boonsView.getByRole('button', { name: 'Comment', exact: true }).click();
  await boonsView.getByLabel('Write a comment').fill('I will bring the ladder');
  await boonsView.getByLabel('Write a comment').press('Enter');
  await expect(boonsView.getByRole('listitem', { name: 'Comment by Boon Chaiyo' })).toContainText(
    'I will bring the ladder',
  );
  await expect(boonsView.getByRole('button', { name: '1 comment' })).toBeVisible();
  await boonsView.getByRole('button', { name: 'React to this post' }).click();
  await b.getByRole('button', { name: 'React with 👍' }).click();
  await expect(boonsView.getByRole('button', { name: '👍 1 reaction: Boon Chaiyo' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  // Boon's bell on someone else's post is off until he rings it.
  await expect(
    boonsView.getByRole('button', { name: 'Bell off: no notifications for this post' }),
  ).toBeVisible();
  await boonsView.getByRole('button', { name: 'Bell off: no notifications for this post' }).click();
  await expect(
    boonsView.getByRole('button', { name: 'Bell ring: notifications from this post' }),
  ).toHaveAttribute('aria-pressed', 'true');

  // Having read the topic, Boon has nothing unread on Home.
  await b.getByRole('link', { name: 'Home' }).click();
  await b.getByRole('button', { name: 'All topics' }).click();
  await expect(b.getByRole('link').filter({ hasText: title })).toBeVisible();
  await expect(
    b
      .getByRole('link')
      .filter({ hasText: title })
      .getByText(/unread/),
  ).toHaveCount(0);

  // Anong sees the comment and the reaction; her bell (as the author) rings; she turns it off.
  await a.goto(topicUrl);
  const anongsView = post(a, 'Hello team');
  await expect(anongsView.getByRole('button', { name: '👍 1 reaction: Boon Chaiyo' })).toHaveAttribute(
    'aria-pressed',
    'false',
  );
  await anongsView.getByRole('button', { name: '1 comment' }).click();
  await expect(anongsView.getByText('I will bring the ladder')).toBeVisible();
  await anongsView.getByRole('button', { name: 'Bell ring: notifications from this post' }).click();
  await expect(
    anongsView.getByRole('button', { name: 'Bell off: no notifications for this post' }),
  ).toBeVisible();
  await a.reload();
  await expect(
    post(a, 'Hello team').getByRole('button', { name: 'Bell off: no notifications for this post' }),
  ).toBeVisible();

  // She edits her first post: it is marked "edited".
  await post(a, 'Hello team').getByRole('button', { name: 'Post menu' }).click();
  await a.getByRole('menuitem', { name: 'Edit' }).click();
  const editor = a.getByRole('dialog', { name: 'Edit post' });
  await editor.getByLabel('Text').fill('Hello **everyone**');
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(post(a, 'Hello everyone').getByText('edited', { exact: true })).toBeVisible();

  // She deletes the image post: a placeholder stays.
  await post(a, 'The site from above').getByRole('button', { name: 'Post menu' }).click();
  await a.getByRole('menuitem', { name: 'Delete' }).click();
  await a.getByRole('dialog', { name: 'Delete this post?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(a.getByText('This post was deleted.')).toBeVisible();
  await expect(a.getByRole('img', { name: 'site.png' })).toHaveCount(0);

  // She pins her first post: it is listed first, above the chat.
  await post(a, 'Hello everyone').getByRole('button', { name: 'Post menu' }).click();
  await a.getByRole('menuitem', { name: 'Pin' }).click();
  await expect(a.getByRole('region', { name: 'Pinned posts' }).getByText('Hello everyone')).toBeVisible();

  // Boon, reloading, sees the edit, the placeholder and the pinned post too.
  await b.goto(topicUrl);
  await expect(post(b, 'Hello everyone')).toBeVisible();
  await expect(b.getByText('This post was deleted.')).toBeVisible();
  await expect(b.getByRole('region', { name: 'Pinned posts' }).getByText('Anong Srisuk')).toBeVisible();

  await anong.context.close();
  await boon.context.close();
});

test('a long topic opens at the newest post and loads older posts on scrolling up', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const base = baseURL ?? '';
  const me = await signInAs(page, base, 'Chai Longpost');
  const topic = await topicWithPosts(base, me.token, 'Long topic', 75, (n) => `Message number ${n}`);
  await page.goto(`/topics/${topic.id}`);
  await expect(page.getByText('Message number 75', { exact: true })).toBeVisible();
  await expect(page.getByText('Message number 1', { exact: true })).toHaveCount(0);
  const feed = page.getByRole('feed');
  // Scroll to the top until the first post has loaded (two older pages on demand).
  await expect(async () => {
    await feed.evaluate((el) => {
      (el.closest('[data-virtuoso-scroller]') ?? el.parentElement?.parentElement)?.scrollTo({ top: 0 });
    });
    await expect(page.getByText('Message number 1', { exact: true })).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await expect(page.getByText('This is the beginning of the topic.')).toBeVisible();
});

test('a copied post link opens the topic on that post, loading the older posts up to it', async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const base = baseURL ?? '';
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  const me = await signInAs(page, base, 'Kanya Permalink');
  const topic = await topicWithPosts(base, me.token, 'Permalinks', 140, (n) => `Entry ${n}`);
  await page.goto(`/topics/${topic.id}`);
  const newest = post(page, 'Entry 140');
  await expect(page.getByText('Entry 140', { exact: true })).toBeVisible();
  await newest.getByRole('button', { name: 'Post menu' }).click();
  await page.getByRole('menuitem', { name: 'Copy link' }).click();
  await expect(page.getByText('Link copied.')).toBeVisible();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(link).toBe(`${base}/topics/${topic.id}#post-140`);

  // A link to an old post: the page around it loads and the list opens on it, marked; the newest
  // post is out of sight.
  const other = await context.newPage();
  await other.goto(link.replace('#post-140', '#post-7'));
  const marked = (p: Page) => p.locator('article[aria-current="location"]');
  const target = marked(other);
  await expect(target).toContainText('Entry 7');
  await expect(target).toBeInViewport();
  await expect(other.getByText('Entry 140', { exact: true })).not.toBeInViewport();
  // Scrolling up from there still reaches the beginning.
  await expect(async () => {
    await other.getByRole('feed').evaluate((el) => {
      (el.closest('[data-virtuoso-scroller]') ?? el.parentElement?.parentElement)?.scrollTo({ top: 0 });
    });
    await expect(other.getByText('This is the beginning of the topic.')).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });

  // A number the topic does not have yet says so and opens at the newest post.
  await other.goto(link.replace('#post-140', '#post-141'));
  await expect(other.getByText('That post is not in this topic.')).toBeVisible();
  await expect(other.getByText('Entry 140', { exact: true })).toBeVisible();
  await expect(marked(other)).toHaveCount(0);
});

test('a topic that does not exist says so', async ({ page, baseURL }) => {
  await signInAs(page, baseURL ?? '', 'Dao Lost');
  await page.goto('/topics/no-such-topic');
  await expect(page.getByText('This topic does not exist, or you are not one of its members.')).toBeVisible();
});
