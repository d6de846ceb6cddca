import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { apiAs } from '../api.ts';
import { expect, test } from '../fixtures.ts';
import { personPage } from '../session.ts';

const post = (page: Page, text: string | RegExp) => page.getByRole('article').filter({ hasText: text });
const indicator = (page: Page, name: RegExp) => page.getByRole('status', { name });

test('what one person does appears for the other without a reload, and a network drop loses and doubles nothing', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const base = baseURL ?? '';
  const anong = await personPage(browser, base, 'Anong Realtime', { width: 1280, height: 1400 });
  const boon = await personPage(browser, base, 'Boon Realtime', { width: 1280, height: 1400 });
  const title = `Live ${randomUUID().slice(0, 8)}`;
  const topic = await apiAs<{ id: string }>(base, anong.token, 'POST', '/topics', {
    title,
    visibility: 'organisation',
  });

  const a = anong.page;
  const b = boon.page;
  await a.goto(`/topics/${topic.id}`);
  await b.goto(`/topics/${topic.id}`);
  await expect(indicator(a, /Live updates on/)).toBeVisible();
  await expect(indicator(b, /Live updates on/)).toBeVisible();

  // Who is here, and who is typing.
  await expect(b.getByRole('group', { name: 'Here now: Anong Realtime' })).toBeVisible();
  await a.getByLabel('Message').pressSequentially('Hello');
  await expect(b.getByText('Anong Realtime is typing...')).toBeVisible();

  // A post written in Anong's browser appears in Boon's.
  await a.getByLabel('Message').fill('Hello from the site office');
  await a.getByLabel('Message').press('Enter');
  await expect(post(b, 'Hello from the site office')).toBeVisible();
  await expect(b.getByText('Anong Realtime is typing...')).toBeHidden({ timeout: 8000 });
  const posts = await apiAs<{ items: Array<{ id: string; body: string }> }>(
    base,
    boon.token,
    'GET',
    `/topics/${topic.id}/posts`,
  );
  const first = posts.items.find((p) => p.body === 'Hello from the site office');
  if (!first) throw new Error('the post written in the browser is not in the topic');

  // An edit, a reaction and a comment by Anong: each shows up in place for Boon.
  await apiAs(base, anong.token, 'PATCH', `/posts/${first.id}`, { body: 'Hello from the new site office' });
  const boonsView = post(b, 'Hello from the new site office');
  await expect(boonsView.getByText('edited', { exact: true })).toBeVisible();
  await apiAs(base, anong.token, 'POST', `/posts/${first.id}/reactions`, {
    emoji: '👍',
    clientId: randomUUID(),
  });
  await expect(boonsView.getByRole('button', { name: '👍 1 reaction: Anong Realtime' })).toBeVisible();
  await apiAs(base, anong.token, 'POST', `/posts/${first.id}/comments`, {
    body: 'The key is at reception',
    clientId: randomUUID(),
  });
  await expect(boonsView.getByRole('button', { name: '1 comment' })).toBeVisible();
  await boonsView.getByRole('button', { name: '1 comment' }).click();
  await expect(boonsView.getByRole('listitem', { name: 'Comment by Anong Realtime' })).toContainText(
    'The key is at reception',
  );

  // Boon's network drops for ten seconds while Anong writes five posts.
  await boon.context.setOffline(true);
  // The offline dialog is modal (the app bar is hidden from assistive technology behind it).
  await expect(b.getByRole('dialog', { name: "Oops! You're Offline" })).toBeVisible();
  await expect(b.locator('[data-status="offline"]')).toBeAttached();
  const started = Date.now();
  for (let i = 1; i <= 5; i++) {
    await apiAs(base, anong.token, 'POST', `/topics/${topic.id}/posts`, {
      clientId: randomUUID(),
      body: `While you were away ${i}`,
    });
  }
  await expect(post(a, 'While you were away 5')).toBeVisible();
  await expect(post(b, /While you were away/)).toHaveCount(0);
  await b.waitForTimeout(Math.max(0, 10_000 - (Date.now() - started)));
  await boon.context.setOffline(false);

  await expect(indicator(b, /Live updates on/)).toBeVisible({ timeout: 15_000 });
  for (let i = 1; i <= 5; i++) {
    await expect(post(b, `While you were away ${i}`)).toHaveCount(1);
  }
  await expect(post(b, /While you were away/)).toHaveCount(5);
  // And nothing arrives twice later either: one more live post, still each once.
  await apiAs(base, anong.token, 'POST', `/topics/${topic.id}/posts`, {
    clientId: randomUUID(),
    body: 'Back to normal',
  });
  await expect(post(b, 'Back to normal')).toHaveCount(1);
  await expect(post(b, /While you were away/)).toHaveCount(5);

  await anong.context.close();
  await boon.context.close();
});

test('a cold load asks for each answer once, and again only for what the stream finds out of date', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const base = baseURL ?? '';
  const chanya = await personPage(browser, base, 'Chanya Coldload');
  const page = chanya.page;
  const asked = new Map<string, number>();
  page.on('request', (r) => {
    const { pathname } = new URL(r.url());
    if (r.method() === 'GET' && pathname.startsWith('/api/'))
      asked.set(pathname, (asked.get(pathname) ?? 0) + 1);
  });
  const live = indicator(page, /Live updates on/);

  // Nothing happens meanwhile: the stream starts where the answers stand, and none is read twice
  // (the first `ready` used to read everything loaded before it again).
  for (let i = 0; i < 3; i++) {
    await page.reload();
    await expect(live).toBeVisible();
    await page.waitForTimeout(1000);
  }
  expect(asked.get('/api/topics')).toBe(3);
  expect(asked.get('/api/me')).toBe(3);
  // (A part that loads once the page is there, Home's Important strip, may come after the count.)
  expect([...asked].filter(([, n]) => n > 3)).toEqual([]);

  // Home's list is answered, then a topic is started before the stream says hello: the event is
  // before the stream's start, so it does not come live; the list is read again instead.
  let helloMayGo!: () => void;
  const held = new Promise<void>((resolve) => {
    helloMayGo = resolve;
  });
  await page.routeWebSocket(/\/api\/realtime$/, (ws) => {
    const server = ws.connectToServer();
    let order = Promise.resolve();
    ws.onMessage((message) => {
      order = order.then(async () => {
        if (typeof message === 'string' && message.includes('"hello"')) await held;
        server.send(message);
      });
    });
  });
  asked.clear();
  const listed = page.waitForResponse(
    (r) => new URL(r.url()).pathname === '/api/topics' && r.request().method() === 'GET',
  );
  await page.reload();
  const listedAt = Number((await listed).headers()['x-btalk-event-seq']);
  const title = `Started meanwhile ${randomUUID().slice(0, 8)}`;
  await apiAs(base, chanya.token, 'POST', '/topics', { title, visibility: 'organisation' });
  // The server's stream has read the new topic's events: a new answer says so.
  await expect
    .poll(async () => {
      const answer = await page.request.get(`${base}/api/health`);
      return Number(answer.headers()['x-btalk-event-seq']);
    })
    .toBeGreaterThan(listedAt);
  helloMayGo();
  await expect(live).toBeVisible();
  await expect(page.getByRole('link', { name: title })).toBeVisible();
  expect(asked.get('/api/topics')).toBe(2);
});
