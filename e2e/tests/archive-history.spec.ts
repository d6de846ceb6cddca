import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { apiAs } from '../api.ts';
import { expect, test } from '../fixtures.ts';
import { personPage } from '../session.ts';

/** Home's topic list (My topics or All topics). */
const homeList = (page: Page) => page.getByRole('list', { name: 'Topics', exact: true });

test('an owner archives a topic: it leaves Home, is found under Archived, read-only for a member, and restored', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const base = baseURL ?? '';
  const anong = await personPage(browser, base, 'Anong Archive');
  const boon = await personPage(browser, base, 'Boon Archive');
  const title = `Old plans ${randomUUID().slice(0, 8)}`;
  const topic = await apiAs<{ id: string }>(base, anong.token, 'POST', '/topics', {
    title,
    visibility: 'members',
    memberIds: [boon.id],
  });
  await apiAs(base, anong.token, 'POST', `/topics/${topic.id}/posts`, {
    clientId: randomUUID(),
    body: 'Kept',
  });

  const b = boon.page;
  await b.reload();
  await expect(homeList(b).getByRole('link', { name: new RegExp(title) })).toBeVisible();

  // The owner archives it from the topic's menu: a banner says so, with Restore for her.
  const a = anong.page;
  await a.goto(`/topics/${topic.id}`);
  await a.getByRole('button', { name: 'Topic menu' }).click();
  await a.getByRole('menuitem', { name: 'Archive' }).click();
  const banner = a.getByRole('status').filter({ hasText: 'This topic is archived' });
  await expect(banner).toBeVisible();
  await expect(banner.getByRole('button', { name: 'Restore' })).toBeVisible();
  await expect(a.getByLabel('Message')).toHaveCount(0);

  // It leaves the member's Home at once, and the owner finds it under Archived by its title.
  await expect(b.getByText('You are not in any topic yet.', { exact: false })).toBeVisible();
  await a.goto('/');
  await expect(homeList(a).getByRole('link', { name: new RegExp(title) })).toHaveCount(0);
  await a.getByRole('button', { name: 'Archived' }).click();
  await a.getByLabel('Search archived topics by title').fill(title.slice(-8).toUpperCase());
  const archived = a.getByRole('list', { name: 'Archived topics' });
  await expect(archived.getByRole('link')).toHaveCount(1);
  await expect(archived.getByRole('link', { name: new RegExp(title) })).toBeVisible();
  await a.getByLabel('Search archived topics by title').fill('no such title at all');
  await expect(a.getByText('No archived topic has “no such title at all” in its title.')).toBeVisible();

  // The member opens it from Archived: read-only, no Restore.
  await b.getByRole('button', { name: 'Archived' }).click();
  await b
    .getByRole('list', { name: 'Archived topics' })
    .getByRole('link', { name: new RegExp(title) })
    .click();
  await expect(b.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await expect(b.getByRole('status').filter({ hasText: 'This topic is archived' })).toBeVisible();
  await expect(b.getByRole('button', { name: 'Restore' })).toHaveCount(0);
  await expect(b.getByLabel('Message')).toHaveCount(0);
  await expect(b.getByText('This topic is archived: it is read-only.')).toBeVisible();
  await expect(b.getByRole('article').filter({ hasText: 'Kept' })).toBeVisible();

  // The owner restores it: it is back on the member's Home, live, and open for posts again.
  await b.goto('/');
  // Boon is in no other topic: his Home says so until the topic comes back.
  await expect(b.getByText('You are not in any topic yet.', { exact: false })).toBeVisible();
  await a.goto(`/topics/${topic.id}`);
  await a.getByRole('button', { name: 'Restore' }).click();
  await expect(a.getByRole('status').filter({ hasText: 'This topic is archived' })).toHaveCount(0);
  await expect(a.getByLabel('Message')).toBeVisible();
  await expect(homeList(b).getByRole('link', { name: new RegExp(title) })).toBeVisible();
  await b.getByRole('button', { name: 'Archived' }).click();
  await expect(b.getByRole('link', { name: new RegExp(title) })).toHaveCount(0);

  await anong.context.close();
  await boon.context.close();
});

test('a post edited twice shows both earlier versions in its history, newest first', async ({
  browser,
  baseURL,
}) => {
  const base = baseURL ?? '';
  const anong = await personPage(browser, base, 'Anong History');
  const boon = await personPage(browser, base, 'Boon History');
  const topic = await apiAs<{ id: string }>(base, anong.token, 'POST', '/topics', {
    title: `History ${randomUUID().slice(0, 8)}`,
    visibility: 'members',
    memberIds: [boon.id],
  });
  const post = await apiAs<{ id: string }>(base, anong.token, 'POST', `/topics/${topic.id}/posts`, {
    clientId: randomUUID(),
    body: `First draft for @[Boon History](user:${boon.id})`,
  });

  // Anong edits it in the app, then once more.
  const a = anong.page;
  await a.goto(`/topics/${topic.id}`);
  const article = a.getByRole('article').filter({ hasText: 'First draft' });
  await article.getByRole('button', { name: 'Post menu' }).click();
  await a.getByRole('menuitem', { name: 'Edit' }).click();
  const editor = a.getByRole('dialog', { name: 'Edit post' });
  await editor.getByLabel('Text').fill('Second draft with **bold** words');
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(a.getByRole('article').filter({ hasText: 'Second draft' })).toBeVisible();
  await apiAs(base, anong.token, 'PATCH', `/posts/${post.id}`, { body: 'Final text' });

  // Boon, a member, opens the history from "edited".
  const b = boon.page;
  await b.goto(`/topics/${topic.id}`);
  const final = b.getByRole('article').filter({ hasText: 'Final text' });
  await final.getByRole('button', { name: /^edited/ }).click();
  const dialog = b.getByRole('dialog', { name: 'Edit history' });
  const versions = dialog.getByRole('list', { name: 'Versions, newest first' }).getByRole('listitem');
  await expect(versions).toHaveCount(3);
  await expect(versions.nth(0)).toContainText('Current version');
  await expect(versions.nth(0)).toContainText('Final text');
  await expect(versions.nth(1)).toContainText('Version 2');
  await expect(versions.nth(1).locator('strong', { hasText: 'bold' })).toBeVisible();
  await expect(versions.nth(2)).toContainText('Version 1');
  await expect(versions.nth(2)).toContainText('Anong History');
  // The mention reads as the person's name, as in the post.
  await expect(versions.nth(2)).toContainText('First draft for @Boon History');
  await expect(versions.nth(2)).not.toContainText('user:');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);

  // A comment keeps its history too.
  const comment = await apiAs<{ id: string }>(base, anong.token, 'POST', `/posts/${post.id}/comments`, {
    clientId: randomUUID(),
    body: 'Comment as first said',
  });
  await apiAs(base, anong.token, 'PATCH', `/comments/${comment.id}`, { body: 'Comment as corrected' });
  await final.getByRole('button', { name: '1 comment' }).click();
  const commentItem = b.getByLabel('Comment by Anong History');
  await expect(commentItem).toContainText('Comment as corrected');
  await commentItem.getByRole('button', { name: /^edited/ }).click();
  const commentVersions = b
    .getByRole('dialog', { name: 'Edit history' })
    .getByRole('list', { name: 'Versions, newest first' })
    .getByRole('listitem');
  await expect(commentVersions).toHaveCount(2);
  await expect(commentVersions.nth(1)).toContainText('Comment as first said');

  await anong.context.close();
  await boon.context.close();
});
