import { NotificationKind, type NotificationSettings } from '@btalk/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { transact } from '../commands/transact.ts';
import type { UserRow } from '../db/schema.ts';
import { newId, now } from '../ids.ts';
import { describeEachDatabase } from '../test/db.ts';
import { setAsideOutbox } from '../test/outbox.ts';
import { useTestServer } from '../test/server.ts';
import { signedIn } from '../test/session.ts';
import { as, buildPost, buildTopic, dataOf } from '../test/topics.ts';
import type { Channel, OutgoingMessage, SendResult } from './channels/channel.ts';
import { notify } from './notifier.ts';
import { retryDelayMs } from './outbox.ts';
import { DEFAULT_SETTINGS, saveSettings } from './settings.ts';
import { NotificationWorker } from './worker.ts';

/**
 * A channel of our own interface that records what it is asked to send and answers as scripted: the
 * worker's logic (claims, retries, dead letters, coalescing) is tested here; the real push and e-mail
 * channels are tested against a real push service and SMTP server in channels/.
 */
class RecordingChannel implements Channel {
  readonly sent: { person: string; message: OutgoingMessage }[] = [];
  answers: SendResult[] = [];
  readonly name: 'push' | 'email';
  constructor(name: 'push' | 'email') {
    this.name = name;
  }
  async send(person: UserRow, message: OutgoingMessage): Promise<SendResult> {
    const answer = this.answers.shift() ?? { status: 'sent' };
    if (answer.status === 'sent') this.sent.push({ person: person.id, message });
    return answer;
  }
}

/** A clock that moves only when told. */
function manualClock(start = Date.now()) {
  let t = start;
  return { now: () => new Date(t), advance: (ms: number) => (t += ms) };
}

const withChannels = (over: Partial<NotificationSettings['channels']> = {}): NotificationSettings => ({
  ...DEFAULT_SETTINGS,
  channels: { push: true, email: true, teams: false, ...over },
});

describe('retry delays', () => {
  it('double with each try, with jitter between half and all of the ceiling, up to an hour', () => {
    expect(retryDelayMs(1, () => 0)).toBe(5_000);
    expect(retryDelayMs(1, () => 1)).toBe(10_000);
    expect(retryDelayMs(3, () => 1)).toBe(40_000);
    expect(retryDelayMs(30, () => 1)).toBe(3_600_000);
  });
});

describeEachDatabase('notification outbox and delivery worker', (kind) => {
  const server = useTestServer(kind);
  let push: RecordingChannel;
  let email: RecordingChannel;
  let clock: ReturnType<typeof manualClock>;
  const worker = (extra: Partial<ConstructorParameters<typeof NotificationWorker>[0]> = {}) =>
    new NotificationWorker({
      db: server.ctx.db.kysely,
      channels: [push, email],
      publicUrl: 'http://btalk.test',
      clock: clock.now,
      random: () => 1,
      maxAttempts: 3,
      emailDelayMs: 0,
      ...extra,
    });
  const db = () => server.ctx.db.kysely;
  const deliveriesOf = (userId: string) =>
    db()
      .selectFrom('notification_deliveries')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute();

  beforeEach(async () => {
    push = new RecordingChannel('push');
    email = new RecordingChannel('email');
    clock = manualClock();
    // Earlier tests' leftovers are not this test's business.
    await setAsideOutbox(db());
  });

  it('writes notifications in the transaction of their change: a rolled-back command leaves nothing', async () => {
    const malee = await signedIn(server);
    await expect(
      transact(server.ctx, async (trx) => {
        await notify(
          trx,
          [
            {
              userId: malee.user.id,
              kind: NotificationKind.mention,
              urgent: false,
              title: 't',
              body: 'b',
              data: {},
            },
          ],
          now(),
          null,
        );
        throw new Error('the command failed after notifying');
      }),
    ).rejects.toThrow('the command failed');
    const rows = await db()
      .selectFrom('notifications')
      .select('id')
      .where('user_id', '=', malee.user.id)
      .execute();
    const events = await db()
      .selectFrom('events')
      .select('seq')
      .where('room', '=', `user:${malee.user.id}`)
      .execute();
    expect(rows).toEqual([]);
    expect(events).toEqual([]);
  });

  it('a mention reaches the person in the app and on each channel they have on, worded in their language', async () => {
    const somchai = await signedIn(server, { display_name: 'Somchai' });
    const malee = await signedIn(server, { display_name: 'Malee', locale: 'th' });
    await saveSettings(db(), malee.user.id, withChannels(), now());
    const topic = await buildTopic(server, somchai, { title: 'Safety' });
    const post = await buildPost(server, somchai, topic.id, `Please check @[Malee](user:${malee.user.id})`, {
      mentions: [malee.user.id],
    });
    const list = dataOf<{ items: { kind: string; data: Record<string, unknown> }[]; unreadCount: number }>(
      await as(server, malee).get('/api/notifications'),
    );
    expect(list.unreadCount).toBe(1);
    expect(list.items[0]).toMatchObject({
      kind: NotificationKind.mention,
      data: { postId: post.id, excerpt: 'Please check @Malee' },
    });
    // The author is not told of their own writing.
    const mine = dataOf<{ items: unknown[] }>(await as(server, somchai).get('/api/notifications'));
    expect(mine.items).toEqual([]);

    const round = await worker().drain();
    expect(round).toMatchObject({ dispatched: 1, sent: 2 });
    expect(push.sent).toHaveLength(1);
    expect(push.sent[0]!.message).toMatchObject({
      title: 'Somchai กล่าวถึงคุณใน Safety',
      body: 'Please check @Malee',
      url: `http://btalk.test/topics/${topic.id}#post-${post.number}`,
      locale: 'th',
      urgent: false,
    });
    expect(email.sent).toHaveLength(1);
    // Sent once: another round finds nothing.
    expect(await worker().drain()).toMatchObject({ dispatched: 0, sent: 0 });
  });

  it('retries a failing channel with growing delays, then keeps it as a dead letter; other channels are not held up', async () => {
    const a = await signedIn(server);
    const b = await signedIn(server);
    await saveSettings(db(), b.user.id, withChannels(), now());
    const topic = await buildTopic(server, a);
    await buildPost(server, a, topic.id, `Hi @[B](user:${b.user.id})`, { mentions: [b.user.id] });
    push.answers = [
      { status: 'failed', error: 'push service answered 500' },
      { status: 'failed', error: 'push service answered 503' },
      { status: 'failed', error: 'push service answered 502' },
    ];
    const w = worker();
    expect(await w.runOnce()).toMatchObject({ dispatched: 1, sent: 1, failed: 1 });
    expect(email.sent).toHaveLength(1);
    let [pushRow] = (await deliveriesOf(b.user.id)).filter((d) => d.channel === 'push');
    expect(pushRow).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_error: 'push service answered 500',
    });
    const firstWait = Date.parse(pushRow!.next_attempt_at) - clock.now().getTime();
    expect(firstWait).toBe(10_000);

    // Not due yet: nothing is tried.
    expect(await w.runOnce()).toMatchObject({ sent: 0, failed: 0 });
    clock.advance(firstWait);
    expect(await w.runOnce()).toMatchObject({ failed: 1 });
    [pushRow] = (await deliveriesOf(b.user.id)).filter((d) => d.channel === 'push');
    expect(Date.parse(pushRow!.next_attempt_at) - clock.now().getTime()).toBe(20_000);
    clock.advance(20_000);
    expect(await w.runOnce()).toMatchObject({ dead: 1 });
    [pushRow] = (await deliveriesOf(b.user.id)).filter((d) => d.channel === 'push');
    expect(pushRow).toMatchObject({ status: 'dead', attempts: 3, last_error: 'push service answered 502' });
    clock.advance(3_600_000);
    expect(await w.drain()).toMatchObject({ sent: 0, failed: 0, dead: 0 });
    expect(push.sent).toHaveLength(0);
  });

  it("waits as long as the channel's Retry-After asks, and a permanent failure is dead at once", async () => {
    const a = await signedIn(server);
    const b = await signedIn(server);
    await saveSettings(db(), b.user.id, withChannels(), now());
    const topic = await buildTopic(server, a);
    await buildPost(server, a, topic.id, `Hi @[B](user:${b.user.id})`, { mentions: [b.user.id] });
    push.answers = [{ status: 'failed', error: 'push service answered 429', retryAfterMs: 120_000 }];
    email.answers = [{ status: 'failed', error: 'SMTP answered 550', permanent: true }];
    await worker().runOnce();
    const rows = await deliveriesOf(b.user.id);
    const pushRow = rows.find((d) => d.channel === 'push')!;
    expect(Date.parse(pushRow.next_attempt_at) - clock.now().getTime()).toBe(120_000);
    expect(rows.find((d) => d.channel === 'email')).toMatchObject({ status: 'dead', attempts: 1 });
  });

  it('coalesces a burst for push and e-mail into one message; the in-app list keeps each', async () => {
    const author = await signedIn(server);
    const c1 = await signedIn(server, { display_name: 'Anan' });
    const topic = await buildTopic(server, author, { title: 'Flood' });
    await saveSettings(db(), author.user.id, withChannels(), now());
    const post = await buildPost(server, author, topic.id, 'Water is rising');
    for (let i = 0; i < 3; i++) {
      await as(server, c1).post(`/api/posts/${post.id}/comments`, {
        clientId: newId(),
        body: `Comment ${i}`,
      });
    }
    const list = dataOf<{ items: { kind: string }[] }>(await as(server, author).get('/api/notifications'));
    expect(list.items.map((n) => n.kind)).toEqual([
      NotificationKind.comment,
      NotificationKind.comment,
      NotificationKind.comment,
    ]);
    await worker().drain();
    expect(push.sent).toHaveLength(1);
    expect(push.sent[0]!.message.title).toBe('3 new comments on a post in Flood');
    expect(push.sent[0]!.message.notifications).toHaveLength(3);
    expect(email.sent).toHaveLength(1);
  });

  it('quiet hours hold back ordinary notifications but not call-tree ones', async () => {
    const a = await signedIn(server);
    const b = await signedIn(server);
    await saveSettings(
      db(),
      b.user.id,
      {
        ...withChannels(),
        quietHours: { enabled: true, start: '00:00', end: '23:59', timeZone: 'Asia/Bangkok' },
      },
      now(),
    );
    // 10:00 in Bangkok: inside quiet hours.
    clock = manualClock(Date.parse('2026-11-23T03:00:00Z'));
    const topic = await buildTopic(server, a);
    await buildPost(server, a, topic.id, `Hi @[B](user:${b.user.id})`, { mentions: [b.user.id] });
    await transact(server.ctx, (trx) =>
      notify(
        trx,
        [
          {
            userId: b.user.id,
            kind: NotificationKind.callStarted,
            urgent: true,
            title: 'Fire',
            body: 'Are you safe?',
            data: { eventId: 'e1', eventTitle: 'Fire' },
          },
        ],
        clock.now().toISOString(),
        null,
      ),
    );
    await worker().drain();
    expect(push.sent.map((s) => s.message.urgent)).toEqual([true]);
    const rows = await deliveriesOf(b.user.id);
    expect(rows.filter((d) => d.status === 'skipped').every((d) => d.last_error === 'quiet hours')).toBe(
      true,
    );
    expect(rows.filter((d) => d.status === 'skipped')).toHaveLength(2);
  });

  it('a kind switched off stays in the app but goes out on no channel; a channel switched off gets nothing', async () => {
    const a = await signedIn(server);
    const b = await signedIn(server);
    await saveSettings(
      db(),
      b.user.id,
      { ...withChannels({ email: false }), kinds: { ...DEFAULT_SETTINGS.kinds, topicAdded: false } },
      now(),
    );
    const topic = await buildTopic(server, a, { visibility: 'members', memberIds: [b.user.id] });
    await buildPost(server, a, topic.id, 'News for members');
    await worker().drain();
    const list = dataOf<{ items: { kind: string }[] }>(await as(server, b).get('/api/notifications'));
    expect(list.items.map((n) => n.kind).sort()).toEqual(
      [NotificationKind.post, NotificationKind.topicAdded].sort(),
    );
    expect(push.sent.map((s) => s.message.notifications[0]!.kind)).toEqual([NotificationKind.post]);
    expect(email.sent).toEqual([]);
  });

  it('e-mail waits, and is not sent for a notification read in the app meanwhile', async () => {
    const a = await signedIn(server);
    const b = await signedIn(server);
    await saveSettings(db(), b.user.id, withChannels({ push: false }), now());
    const topic = await buildTopic(server, a);
    await buildPost(server, a, topic.id, `Hi @[B](user:${b.user.id})`, { mentions: [b.user.id] });
    const w = worker({ emailDelayMs: 120_000, clock: () => new Date(Date.now() + offset) });
    let offset = 0;
    await w.drain();
    expect(email.sent).toEqual([]);
    await as(server, b).post('/api/notifications/read', { all: true });
    offset = 121_000;
    await w.drain();
    expect(email.sent).toEqual([]);
    const [row] = await deliveriesOf(b.user.id);
    expect(row).toMatchObject({ status: 'skipped', last_error: 'read in the app or withdrawn' });
  });

  it('deleting a post withdraws its unread notifications and their pending deliveries', async () => {
    const a = await signedIn(server);
    const b = await signedIn(server);
    await saveSettings(db(), b.user.id, withChannels(), now());
    const topic = await buildTopic(server, a);
    const post = await buildPost(server, a, topic.id, `Hi @[B](user:${b.user.id})`, {
      mentions: [b.user.id],
    });
    await worker({ emailDelayMs: 600_000 }).runOnce();
    expect(push.sent).toHaveLength(1);
    expect((await deliveriesOf(b.user.id)).find((d) => d.channel === 'email')?.status).toBe('pending');
    const res = await as(server, a).delete(`/api/posts/${post.id}`);
    expect(res.statusCode).toBe(200);
    const list = dataOf<{ items: unknown[]; unreadCount: number }>(
      await as(server, b).get('/api/notifications'),
    );
    expect(list).toMatchObject({ items: [], unreadCount: 0 });
    expect(await deliveriesOf(b.user.id)).toEqual([]);
    const withdrawn = await db()
      .selectFrom('events')
      .select('type')
      .where('room', '=', `user:${b.user.id}`)
      .where('type', '=', 'notification.withdrawn')
      .execute();
    expect(withdrawn).toHaveLength(1);
  });

  it('an edit does not notify again', async () => {
    const a = await signedIn(server);
    const b = await signedIn(server);
    const topic = await buildTopic(server, a);
    const body = `Hi @[B](user:${b.user.id})`;
    const post = await buildPost(server, a, topic.id, body, { mentions: [b.user.id] });
    const edit = await as(server, a).patch(`/api/posts/${post.id}`, {
      body: `${body}!`,
      mentions: [b.user.id],
    });
    expect(edit.statusCode).toBe(200);
    const list = dataOf<{ items: unknown[] }>(await as(server, b).get('/api/notifications'));
    expect(list.items).toHaveLength(1);
  });

  it('a delivery claimed by a worker that died is sent by another once its lease runs out', async () => {
    const a = await signedIn(server);
    const b = await signedIn(server);
    await saveSettings(db(), b.user.id, withChannels({ email: false }), now());
    const topic = await buildTopic(server, a);
    await buildPost(server, a, topic.id, `Hi @[B](user:${b.user.id})`, { mentions: [b.user.id] });
    const dead = worker({ leaseMs: 60_000 });
    // The first worker dispatches and claims, then "crashes" before sending: its claim stays.
    const { claimDueDeliveries, dispatchNotifications } = await import('./outbox.ts');
    await dispatchNotifications(db(), {
      channels: new Set(['push']),
      emailDelayMs: 0,
      now: clock.now(),
      limit: 10,
    });
    expect(await claimDueDeliveries(db(), dead.id, clock.now(), 60_000, 10)).toHaveLength(1);
    const survivor = worker();
    expect(await survivor.drain()).toMatchObject({ sent: 0 });
    clock.advance(60_001);
    expect(await survivor.drain()).toMatchObject({ sent: 1 });
    expect(push.sent).toHaveLength(1);
  });

  it('two workers on the same database send every delivery once', async () => {
    const author = await signedIn(server);
    const topic = await buildTopic(server, author);
    const people = await Promise.all(Array.from({ length: 40 }, () => signedIn(server)));
    for (const p of people) await saveSettings(db(), p.user.id, withChannels({ email: false }), now());
    await transact(server.ctx, (trx) =>
      notify(
        trx,
        people.flatMap((p) =>
          Array.from({ length: 5 }, (_, i) => ({
            userId: p.user.id,
            kind: NotificationKind.callReminder,
            urgent: true,
            title: `Reminder ${i}`,
            body: 'Are you safe?',
            data: { eventId: `e-${topic.id}`, eventTitle: 'Drill' },
          })),
        ),
        now(),
        null,
      ),
    );
    const one = worker({ batchSize: 17, concurrency: 4 });
    const two = worker({ batchSize: 13, concurrency: 4 });
    await Promise.all([one.drain(), two.drain(), one.drain(), two.drain()]);
    const ids = push.sent.flatMap((s) => s.message.notifications.map((n) => n.id));
    expect(ids).toHaveLength(200);
    expect(new Set(ids).size).toBe(200);
  });
});
