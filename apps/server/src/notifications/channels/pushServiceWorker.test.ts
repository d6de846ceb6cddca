import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { expect, it } from 'vitest';
import { newId } from '../../ids.ts';
import { describeEachDatabase } from '../../test/db.ts';
import { useTestServer } from '../../test/server.ts';
import { signedIn } from '../../test/session.ts';
import { as, buildPost, buildTopic } from '../../test/topics.ts';
import { acknowledgeUrl } from '../acknowledgeLinks.ts';
import type { OutgoingMessage } from './channel.ts';
import { pushPayload } from './push.ts';

/** The web app's service worker code for push (copied into the PWA's service worker as it is). */
const SOURCE = readFileSync(new URL('../../../../web/public/push-sw.js', import.meta.url), 'utf8');

type Handler = (event: Record<string, unknown>) => void;

/**
 * Runs push-sw.js in a service worker's scope made of stand-ins: what it shows, opens and posts is
 * recorded; `fetch` goes to `answer`.
 */
function serviceWorker(origin: string, answer: (url: string, init: RequestInit) => Promise<{ ok: boolean }>) {
  const handlers = new Map<string, Handler>();
  const shown: { title: string; options: Record<string, unknown> }[] = [];
  const opened: string[] = [];
  const posted: string[] = [];
  const self = {
    location: { origin },
    addEventListener: (type: string, handler: Handler) => handlers.set(type, handler),
    registration: {
      showNotification: async (title: string, options: Record<string, unknown>) => {
        shown.push({ title, options });
      },
    },
    clients: {
      matchAll: async () => [],
      openWindow: async (url: string) => {
        opened.push(url);
      },
    },
  };
  const fetch = async (url: string, init: RequestInit) => {
    posted.push(url);
    return answer(url, init);
  };
  runInNewContext(SOURCE, { self, fetch, URL });
  /** Dispatches an event and waits for what it asked to wait for. */
  async function dispatch(type: string, event: Record<string, unknown>) {
    const waits: Promise<unknown>[] = [];
    handlers.get(type)?.({ ...event, waitUntil: (p: Promise<unknown>) => waits.push(p) });
    await Promise.all(waits);
  }
  return {
    shown,
    opened,
    posted,
    push: (payload: unknown) => dispatch('push', { data: { json: () => payload } }),
    click: (data: unknown, action = '') =>
      dispatch('notificationclick', { action, notification: { data, close: () => {} } }),
  };
}

function message(overrides: Partial<OutgoingMessage>): OutgoingMessage {
  return {
    notifications: [],
    title: 'Important: Safety',
    body: 'Fire drill.\n\nPlease acknowledge.',
    url: 'http://btalk.test/topics/t1#post-1',
    tag: 'announcement:p1',
    urgent: false,
    locale: 'en',
    ...overrides,
  };
}

describeEachDatabase('push service worker (public/push-sw.js) with the server', (kind) => {
  const server = useTestServer(kind);

  it("shows an important post's Acknowledge button; pressing it acknowledges through the link and opens nothing", async () => {
    const origin = new URL(server.ctx.config.publicUrl).origin;
    const author = await signedIn(server);
    const reader = await signedIn(server);
    const topic = await buildTopic(server, author, { visibility: 'members', memberIds: [reader.user.id] });
    const post = await buildPost(server, author, topic.id, 'Fire drill on Friday.');
    expect((await as(server, author).put(`/api/posts/${post.id}/announcement`, {})).statusCode).toBe(200);

    const sw = serviceWorker(origin, async (url, init) => {
      const answer = await server.app.inject({
        method: init.method as 'POST',
        url: new URL(url, origin).pathname,
      });
      return { ok: answer.statusCode === 200 };
    });
    const link = acknowledgeUrl(server.ctx.config.publicUrl, server.ctx.secret, reader.user.id, post.id);
    const path = `/topics/${topic.id}#post-${post.number}`;
    await sw.push(
      pushPayload(
        message({ url: `${origin}${path}`, acknowledge: { postId: post.id, ask: 'Please acknowledge.' } }),
        link,
      ),
    );
    expect(sw.shown).toHaveLength(1);
    const [notification] = sw.shown;
    expect(notification!.title).toBe('Important: Safety');
    expect(notification!.options).toMatchObject({
      actions: [{ action: 'acknowledge', title: 'Acknowledge' }],
      data: { url: path, acknowledgeUrl: new URL(link!).pathname },
      tag: 'announcement:p1',
      renotify: true,
    });

    await sw.click(notification!.options.data, 'acknowledge');
    expect(sw.posted).toEqual([new URL(link!).pathname]);
    expect(sw.opened).toEqual([]);
    const row = await server.ctx.db.kysely
      .selectFrom('announcement_recipients')
      .select('acknowledged_at')
      .where('post_id', '=', post.id)
      .where('user_id', '=', reader.user.id)
      .executeTakeFirstOrThrow();
    expect(row.acknowledged_at).toBeTruthy();

    // A click on the notification itself opens the post, posting nothing.
    await sw.click(notification!.options.data);
    expect(sw.posted).toHaveLength(1);
    expect(sw.opened).toEqual([`${origin}${path}`]);
  });

  it('opens the post when acknowledging does not work, and takes no link of another origin', async () => {
    const origin = 'https://btalk.test';
    const sw = serviceWorker(origin, async () => ({ ok: false }));
    const link = `${origin}/api/announcements/acknowledge/${newId()}`;
    await sw.push(
      pushPayload(
        message({ url: `${origin}/topics/t1#post-1`, acknowledge: { postId: 'p1', ask: 'x' } }),
        link,
      ),
    );
    await sw.click(sw.shown[0]!.options.data, 'acknowledge');
    expect(sw.posted).toEqual([`/api/announcements/acknowledge/${link.split('/').pop()}`]);
    expect(sw.opened).toEqual([`${origin}/topics/t1#post-1`]);

    // A payload pointing elsewhere: no button, and a click opens Home rather than the other site.
    const other = serviceWorker(origin, async () => ({ ok: true }));
    await other.push({
      title: 'Important',
      body: '',
      url: 'https://evil.test/x',
      tag: 't',
      urgent: false,
      notificationIds: [],
      actions: [{ action: 'acknowledge', title: 'Acknowledge' }],
      acknowledgeUrl: 'https://evil.test/api/announcements/acknowledge/x',
    });
    expect(other.shown[0]!.options).not.toHaveProperty('actions');
    await other.click(other.shown[0]!.options.data, 'acknowledge');
    expect(other.posted).toEqual([]);
    expect(other.opened).toEqual([`${origin}/`]);
    // Another path of this origin is no acknowledge link either.
    const elsewhere = serviceWorker(origin, async () => ({ ok: true }));
    await elsewhere.push({
      title: 'x',
      url: '/',
      actions: [{ action: 'acknowledge', title: 'A' }],
      acknowledgeUrl: '/api/me',
    });
    expect(elsewhere.shown[0]!.options).not.toHaveProperty('actions');
  });
});
