import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:net';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webPush from 'web-push';
import type { Database } from '../../db/index.ts';
import type { NotificationRow, UserRow } from '../../db/schema.ts';
import { newId, now } from '../../ids.ts';
import { describeEachDatabase, openTestDatabase } from '../../test/db.ts';
import { buildUser } from '../../test/factories.ts';
import { type BrowserSubscription, type PushService, startPushService } from '../../test/pushService.ts';
import { acknowledgeUrl, readAcknowledgeToken } from '../acknowledgeLinks.ts';
import type { VapidKeys } from '../vapid.ts';
import type { Channel, OutgoingMessage } from './channel.ts';
import {
  createPushChannel,
  MAX_PAYLOAD_BYTES,
  type PushPayload,
  pushPayload,
  pushTopic,
  retryAfterMs,
} from './push.ts';

const vapid: VapidKeys = { ...webPush.generateVAPIDKeys(), subject: 'mailto:btalk@btalk.test' };

/** A notification row as the worker hands them over (the channel only reads their ids). */
function notificationRow(): NotificationRow {
  return {
    id: newId(),
    user_id: newId(),
    kind: 'post.mention',
    title: 'Mention',
    body: '',
    data: '{}',
    created_at: now(),
    read_at: null,
    topic_id: null,
    post_id: null,
    comment_id: null,
    actor_id: null,
    urgent: 0,
    dispatched_at: null,
  };
}

function message(overrides: Partial<OutgoingMessage> = {}): OutgoingMessage {
  return {
    notifications: [notificationRow()],
    title: 'Somchai mentioned you in Flood response',
    body: 'Can you check the pumps at gate 3?',
    url: 'https://btalk.test/topics/t1#post-4',
    tag: 'topic:t1',
    urgent: false,
    locale: 'en',
    ...overrides,
  };
}

describe('push payload', () => {
  it('keeps the whole message under the size limit, cutting the body at a character', () => {
    const long = message({
      body: 'น้ำท่วม'.repeat(2000),
      notifications: Array.from({ length: 200 }, notificationRow),
    });
    const payload = pushPayload(long);
    expect(Buffer.byteLength(JSON.stringify(payload))).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
    expect(payload.body.endsWith('…')).toBe(true);
    expect(payload.body.startsWith('น้ำท่วม')).toBe(true);
    expect(payload.notificationIds).toHaveLength(20);
    expect(pushPayload(message()).body).toBe('Can you check the pumps at gate 3?');
  });

  it('makes a topic of at most 32 base64url characters from the tag', () => {
    expect(pushTopic('topic:t1')).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(pushTopic('topic:t1')).toBe(pushTopic('topic:t1'));
    expect(pushTopic('topic:t2')).not.toBe(pushTopic('topic:t1'));
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterMs('120')).toBe(120_000);
    const at = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('Thu, 01 Jan 2026 00:01:30 GMT', at)).toBe(90_000);
    expect(retryAfterMs('Wed, 31 Dec 2025 00:00:00 GMT', at)).toBe(0);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });
});

describeEachDatabase('push channel', (kind) => {
  let db: Kysely<Database>;
  let service: PushService;
  let channel: Channel;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const testDb = await openTestDatabase(kind);
    db = testDb.db.kysely;
    service = await startPushService();
    channel = createPushChannel({ db, vapid, timeoutMs: 2000 });
    cleanup = async () => {
      await service.close();
      await testDb.cleanup();
    };
  });
  afterAll(() => cleanup());

  /** Stores a browser's subscription for `person`, as the push-subscriptions API would. */
  async function subscribed(person: UserRow, browser = service.subscribe(vapid.publicKey)) {
    await db
      .insertInto('push_subscriptions')
      .values({
        id: newId(),
        user_id: person.id,
        endpoint: browser.endpoint,
        p256dh: browser.keys.p256dh,
        auth: browser.keys.auth,
        created_at: now(),
        last_success_at: null,
      })
      .execute();
    return browser;
  }
  const idOf = (browser: BrowserSubscription) => browser.endpoint.split('/').pop() ?? '';
  const received = (browser: BrowserSubscription) => service.messages.filter((m) => m.id === idOf(browser));
  const rowsOf = (person: UserRow) =>
    db.selectFrom('push_subscriptions').selectAll().where('user_id', '=', person.id).execute();

  it('is named push', () => {
    expect(channel.name).toBe('push');
  });

  it('delivers the message encrypted for the browser, signed with the VAPID key', async () => {
    const person = await buildUser(db);
    const browser = await subscribed(person);
    const sent = message();
    expect(await channel.send(person, sent)).toEqual({ status: 'sent' });

    const [got] = received(browser);
    expect(got?.json).toEqual({
      title: sent.title,
      body: sent.body,
      url: sent.url,
      tag: sent.tag,
      urgent: false,
      notificationIds: [sent.notifications[0]?.id],
    });
    expect(got?.vapid).toMatchObject({
      aud: new URL(browser.endpoint).origin,
      sub: vapid.subject,
      publicKey: vapid.publicKey,
    });
    expect(got?.vapid.exp).toBeGreaterThan(Date.now() / 1000);
    expect(got?.ttl).toBe(24 * 60 * 60);
    expect(got?.urgency).toBe('normal');
    expect(got?.topic).toBe(pushTopic(sent.tag));
    const [row] = await rowsOf(person);
    expect(row?.last_success_at).toEqual(expect.any(String));
  });

  it('sends urgent messages with high urgency and a short TTL', async () => {
    const person = await buildUser(db);
    const browser = await subscribed(person);
    const sent = message({ urgent: true, title: 'Fire drill: are you safe?', locale: 'th', body: 'ตอบด้วย' });
    expect(await channel.send(person, sent)).toEqual({ status: 'sent' });
    const [got] = received(browser);
    expect(got?.urgency).toBe('high');
    expect(got?.ttl).toBe(60 * 60);
    expect(got?.json).toMatchObject({ urgent: true, body: 'ตอบด้วย' });
  });

  it("an important post's message carries the Acknowledge action and the person's signed link", async () => {
    const secret = new Uint8Array(32).fill(7);
    const asking = createPushChannel({
      db,
      vapid,
      timeoutMs: 2000,
      acknowledgeUrl: (userId, postId) => acknowledgeUrl('https://btalk.test', secret, userId, postId),
    });
    const person = await buildUser(db);
    const browser = await subscribed(person);
    const postId = newId();
    const ask = 'Please acknowledge by Fri 27 Nov, 17:00.';
    const sent = message({ urgent: true, title: 'Important: Safety', acknowledge: { postId, ask } });
    expect(await asking.send(person, sent)).toEqual({ status: 'sent' });
    const [got] = received(browser);
    const payload = got?.json as PushPayload;
    expect(payload).toMatchObject({
      title: 'Important: Safety',
      urgent: true,
      actions: [{ action: 'acknowledge', title: 'Acknowledge' }],
      acknowledgeUrl: expect.stringMatching(
        /^https:\/\/btalk\.test\/api\/announcements\/acknowledge\/[\w-]+\.[\w-]+$/,
      ),
    });
    // An important post stays worth delivering late, urgent or not.
    expect(got?.ttl).toBe(24 * 60 * 60);
    const token = payload.acknowledgeUrl!.split('/').pop()!;
    expect(token.length).toBeLessThanOrEqual(100);
    expect(readAcknowledgeToken(secret, token)).toMatchObject({ ok: true, userId: person.id, postId });

    // In Thai for a Thai person; a message without a request has no action, nor a channel without links.
    await asking.send(person, message({ locale: 'th', acknowledge: { postId, ask } }));
    expect((received(browser)[1]!.json as PushPayload).actions).toEqual([
      { action: 'acknowledge', title: 'รับทราบ' },
    ]);
    await asking.send(person, message());
    await channel.send(person, message({ acknowledge: { postId, ask } }));
    for (const plain of received(browser).slice(2)) {
      expect(plain.json).not.toHaveProperty('actions');
      expect(plain.json).not.toHaveProperty('acknowledgeUrl');
    }
  });

  it('reaches every browser of the person', async () => {
    const person = await buildUser(db);
    const phone = await subscribed(person);
    const laptop = await subscribed(person);
    expect(await channel.send(person, message())).toEqual({ status: 'sent' });
    expect(received(phone)).toHaveLength(1);
    expect(received(laptop)).toHaveLength(1);
  });

  it('skips a person without a subscribed browser', async () => {
    const person = await buildUser(db);
    expect(await channel.send(person, message())).toEqual({
      status: 'skipped',
      reason: 'no subscribed browser',
    });
  });

  it('drops subscriptions the push service answers 410 or 404 for, and skips when none is left', async () => {
    const person = await buildUser(db);
    const gone = await subscribed(person);
    const missing = await subscribed(person);
    service.respondWith({ status: 410, id: idOf(gone) });
    service.respondWith({ status: 404, id: idOf(missing) });
    expect(await channel.send(person, message())).toEqual({
      status: 'skipped',
      reason: 'no subscribed browser',
    });
    expect(await rowsOf(person)).toEqual([]);
  });

  it('still sends to the browsers that are left when one is gone', async () => {
    const person = await buildUser(db);
    const gone = await subscribed(person);
    const kept = await subscribed(person);
    service.expire(idOf(gone));
    expect(await channel.send(person, message())).toEqual({ status: 'sent' });
    expect(received(kept)).toHaveLength(1);
    expect((await rowsOf(person)).map((r) => r.endpoint)).toEqual([kept.endpoint]);
  });

  it('answers a 429 as a failure to retry after Retry-After', async () => {
    const person = await buildUser(db);
    const browser = await subscribed(person);
    service.respondWith({ status: 429, id: idOf(browser), headers: { 'retry-after': '120' } });
    const result = await channel.send(person, message());
    expect(result).toMatchObject({ status: 'failed', permanent: false, retryAfterMs: 120_000 });
    expect(await rowsOf(person)).toHaveLength(1);
  });

  it('answers a 500 as a failure to retry, naming the status and never a key', async () => {
    const person = await buildUser(db);
    const browser = await subscribed(person);
    service.respondWith({ status: 500, id: idOf(browser) });
    const result = await channel.send(person, message());
    expect(result).toMatchObject({ status: 'failed', permanent: false });
    const error = result.status === 'failed' ? result.error : '';
    expect(error).toContain('push service answered 500');
    for (const secret of [vapid.privateKey, vapid.publicKey, browser.keys.auth, browser.keys.p256dh]) {
      expect(error).not.toContain(secret);
    }
    expect(await rowsOf(person)).toHaveLength(1);
  });

  it('answers a refused request (4xx) as a permanent failure', async () => {
    const person = await buildUser(db);
    // The browser subscribed with another server's key: the push service refuses our VAPID signature.
    await subscribed(person, service.subscribe(webPush.generateVAPIDKeys().publicKey));
    const result = await channel.send(person, message());
    expect(result).toMatchObject({
      status: 'failed',
      permanent: true,
      error: expect.stringContaining('403'),
    });
  });

  it('answers an unreachable or silent push service as a failure to retry', async () => {
    const person = await buildUser(db);
    const silent: Server = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    await subscribed(person, { ...service.subscribe(), endpoint: `http://127.0.0.1:${port}/push/silent` });
    const quick = createPushChannel({ db, vapid, timeoutMs: 200 });
    try {
      const result = await quick.send(person, message());
      expect(result).toMatchObject({ status: 'failed', permanent: false });
      expect(result.status === 'failed' && result.error).toContain('did not answer within 200 ms');
    } finally {
      silent.close();
    }
    await db.deleteFrom('push_subscriptions').where('user_id', '=', person.id).execute();
    await subscribed(person, { ...service.subscribe(), endpoint: `http://127.0.0.1:${port}/push/closed` });
    const result = await quick.send(person, message());
    expect(result).toMatchObject({ status: 'failed', permanent: false });
    expect(result.status === 'failed' && result.error).toContain('unreachable');
  });
});
