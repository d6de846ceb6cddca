import { NotificationKind, type NotificationSettings } from '@btalk/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { notifyAudience, unmarkAnnouncement } from '../commands/announcementMarker.ts';
import { transact } from '../commands/transact.ts';
import type { NotificationRow, UserRow } from '../db/schema.ts';
import { newId, now } from '../ids.ts';
import { describeEachDatabase } from '../test/db.ts';
import { setAsideOutbox } from '../test/outbox.ts';
import { useTestServer } from '../test/server.ts';
import { type SignedIn, signedIn } from '../test/session.ts';
import { as, buildPost, buildTopic } from '../test/topics.ts';
import type { Channel, OutgoingMessage, SendResult } from './channels/channel.ts';
import { HELD_FOR_QUIET_HOURS } from './outbox.ts';
import { DEFAULT_SETTINGS, inQuietHours, quietHoursEnd, saveSettings } from './settings.ts';
import { announcementAsk, dueTime, pathOf, wordOne } from './wording.ts';
import { NotificationWorker } from './worker.ts';

/** A channel of our own interface that records what it is asked to send (see worker.test.ts). */
class RecordingChannel implements Channel {
  readonly sent: { person: string; message: OutgoingMessage }[] = [];
  readonly name: 'push' | 'email' | 'teams';
  constructor(name: 'push' | 'email' | 'teams') {
    this.name = name;
  }
  async send(person: UserRow, message: OutgoingMessage): Promise<SendResult> {
    this.sent.push({ person: person.id, message });
    return { status: 'sent' };
  }
}

/** A clock that moves only when told. */
function manualClock(start: number) {
  let t = start;
  return { now: () => new Date(t), set: (at: number) => (t = at) };
}

/** A notification row as the worker loads them, for the wording's pure functions. */
function row(kind: string, data: Record<string, unknown>, body = ''): NotificationRow {
  return {
    id: newId(),
    user_id: newId(),
    kind,
    title: 'English title',
    body,
    data: JSON.stringify(data),
    created_at: now(),
    read_at: null,
    topic_id: typeof data.topicId === 'string' ? data.topicId : null,
    post_id: typeof data.postId === 'string' ? data.postId : null,
    comment_id: null,
    actor_id: null,
    urgent: data.urgent === true ? 1 : 0,
    dispatched_at: null,
  };
}

const BANGKOK_NIGHT: NotificationSettings['quietHours'] = {
  enabled: true,
  start: '22:00',
  end: '07:00',
  timeZone: 'Asia/Bangkok',
};

describe('quiet hours end', () => {
  it('is the next minute the quiet hours end on their wall clock, or the moment itself outside them', () => {
    // 23:30 in Bangkok (UTC+7): the night ends at 07:00 the next morning, 00:00 UTC.
    expect(quietHoursEnd(BANGKOK_NIGHT, new Date('2026-11-23T16:30:12.345Z')).toISOString()).toBe(
      '2026-11-24T00:00:00.000Z',
    );
    // 03:00 in Bangkok, after midnight: the same morning.
    expect(quietHoursEnd(BANGKOK_NIGHT, new Date('2026-11-23T20:00:00Z')).toISOString()).toBe(
      '2026-11-24T00:00:00.000Z',
    );
    // 06:59:59 in Bangkok: a second later.
    expect(quietHoursEnd(BANGKOK_NIGHT, new Date('2026-11-23T23:59:59Z')).toISOString()).toBe(
      '2026-11-24T00:00:00.000Z',
    );
    // 10:00 in Bangkok is not quiet: now.
    const day = new Date('2026-11-24T03:00:00Z');
    expect(quietHoursEnd(BANGKOK_NIGHT, day)).toBe(day);
    // Switched off: never quiet.
    const off = { ...BANGKOK_NIGHT, enabled: false };
    expect(quietHoursEnd(off, new Date('2026-11-23T16:30:00Z')).toISOString()).toBe(
      '2026-11-23T16:30:00.000Z',
    );
    // Within a day (13:00-14:00 in London, winter: UTC).
    const lunch = { enabled: true, start: '13:00', end: '14:00', timeZone: 'Europe/London' };
    expect(quietHoursEnd(lunch, new Date('2026-11-23T13:20:00Z')).toISOString()).toBe(
      '2026-11-23T14:00:00.000Z',
    );
  });

  it('steps past a clock that jumps: the end is always out of the quiet hours', () => {
    // New York springs forward at 02:00 on 8 March 2026: 01:00-02:30 ends at 03:00 (there is no 02:30).
    const spring = { enabled: true, start: '01:00', end: '02:30', timeZone: 'America/New_York' };
    const at = new Date('2026-03-08T06:30:00Z'); // 01:30 EST
    const end = quietHoursEnd(spring, at);
    expect(inQuietHours(spring, end)).toBe(false);
    expect(inQuietHours(spring, new Date(end.getTime() - 60_000))).toBe(true);
    expect(end.toISOString()).toBe('2026-03-08T07:00:00.000Z'); // 03:00 EDT
  });
});

describe('announcement wording', () => {
  const data = {
    topicId: 't1',
    topicTitle: 'Safety',
    postId: 'p1',
    number: 7,
    excerpt: 'Fire drill on Friday at 10:00.',
    dueAt: '2026-11-27T10:00:00.000Z',
    urgent: false,
  };

  it('asks in English and Thai, with the due time on the person’s wall clock', () => {
    const announcement = row(NotificationKind.announcement, data);
    const before = new Date('2026-11-26T00:00:00Z');
    expect(wordOne(announcement, 'en', { timeZone: 'Asia/Bangkok', now: before })).toEqual({
      title: 'Important: Safety',
      body: 'Fire drill on Friday at 10:00.\n\nPlease acknowledge by Fri 27 Nov, 17:00.',
    });
    const thai = wordOne(announcement, 'th', { timeZone: 'Asia/Bangkok', now: before });
    expect(thai.title).toBe('สำคัญ: Safety');
    expect(thai.body).toMatch(/^Fire drill on Friday at 10:00\.\n\nโปรดกดรับทราบภายใน .*27.*17:00$/);
    // Another person's zone: London is UTC in November.
    expect(announcementAsk(announcement, 'en', { timeZone: 'Europe/London', now: before })).toBe(
      'Please acknowledge by Fri 27 Nov, 10:00.',
    );
    // Past the due time (a reminder after it): said so.
    expect(
      announcementAsk(announcement, 'en', {
        timeZone: 'Asia/Bangkok',
        now: new Date('2026-11-28T00:00:00Z'),
      }),
    ).toBe('Please acknowledge: it was due Fri 27 Nov, 17:00.');
    expect(pathOf(announcement)).toBe('/topics/t1#post-7');
  });

  it('words the reminder, and a request without a due time', () => {
    const reminder = row(NotificationKind.announcementReminder, { ...data, dueAt: null });
    expect(wordOne(reminder, 'en')).toEqual({
      title: 'Reminder: please acknowledge a post in Safety',
      body: 'Fire drill on Friday at 10:00.\n\nPlease acknowledge.',
    });
    expect(wordOne(reminder, 'th')).toEqual({
      title: 'เตือน: โปรดกดรับทราบโพสต์ใน Safety',
      body: 'Fire drill on Friday at 10:00.\n\nโปรดกดรับทราบ',
    });
    // Other kinds have no request.
    expect(announcementAsk(row(NotificationKind.mention, data), 'en')).toBeNull();
    // A time zone the runtime does not know: UTC, said so.
    expect(dueTime('2026-11-27T10:00:00.000Z', 'en', 'Mars/Olympus')).toBe('Fri 27 Nov, 10:00 UTC');
  });
});

describeEachDatabase('announcement delivery', (kind) => {
  const server = useTestServer(kind);
  const db = () => server.ctx.db.kysely;
  let push: RecordingChannel;
  let email: RecordingChannel;
  let teams: RecordingChannel;
  // 23:00 in Bangkok.
  const NIGHT = Date.parse('2026-11-23T16:00:00Z');
  const MORNING = Date.parse('2026-11-24T00:00:00Z');
  let clock: ReturnType<typeof manualClock>;
  const worker = () =>
    new NotificationWorker({
      db: db(),
      channels: [push, email, teams],
      publicUrl: 'http://btalk.test',
      clock: clock.now,
      random: () => 1,
      maxAttempts: 3,
      emailDelayMs: 0,
    });
  const deliveriesOf = (userId: string) =>
    db()
      .selectFrom('notification_deliveries')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('channel')
      .execute();

  /** A person with every channel on, every kind off, quiet hours at night in Bangkok. */
  async function reader(locale: 'en' | 'th' = 'en'): Promise<SignedIn> {
    const person = await signedIn(server, { locale });
    await saveSettings(
      db(),
      person.user.id,
      {
        ...DEFAULT_SETTINGS,
        channels: { push: true, email: true, teams: true },
        kinds: { mention: false, comment: false, post: false, topicAdded: false },
        quietHours: BANGKOK_NIGHT,
      },
      now(),
    );
    return person;
  }

  /**
   * Marks a new post of a members' topic important through the API: its one other member, `to`, is
   * asked (a `post.announcement` notice). A reminder is then written as the announcement commands do.
   * What the outbox holds is set aside first (the topic's own notices), unless told to keep it.
   */
  async function announce(
    to: SignedIn,
    options: { urgent: boolean; dueAt?: string | null; reminder?: boolean; keepOutbox?: boolean },
  ): Promise<{ postId: string; topicId: string; number: number }> {
    const author = await signedIn(server);
    const topic = await buildTopic(server, author, {
      title: 'Safety',
      visibility: 'members',
      memberIds: [to.user.id],
    });
    const post = await buildPost(server, author, topic.id, 'Fire drill on **Friday** at 10:00.');
    if (!options.keepOutbox) await setAsideOutbox(db());
    const marked = await as(server, author).put(`/api/posts/${post.id}/announcement`, {
      urgent: options.urgent,
      dueAt: options.dueAt ?? null,
    });
    expect(marked.statusCode).toBe(200);
    if (options.reminder) {
      await setAsideOutbox(db());
      await transact(server.ctx, async (trx) => {
        const request = await trx
          .selectFrom('announcements')
          .selectAll()
          .where('post_id', '=', post.id)
          .executeTakeFirstOrThrow();
        const target = {
          topic: await trx
            .selectFrom('topics')
            .selectAll()
            .where('id', '=', topic.id)
            .executeTakeFirstOrThrow(),
          post: await trx.selectFrom('posts').selectAll().where('id', '=', post.id).executeTakeFirstOrThrow(),
        };
        await notifyAudience(
          trx,
          NotificationKind.announcementReminder,
          request,
          target,
          author.user,
          [to.user.id],
          now(),
          null,
        );
      });
    }
    return { postId: post.id, topicId: topic.id, number: post.number };
  }

  beforeEach(async () => {
    push = new RecordingChannel('push');
    email = new RecordingChannel('email');
    teams = new RecordingChannel('teams');
    clock = manualClock(NIGHT);
    await setAsideOutbox(db());
  });

  it('an urgent one goes through quiet hours at once, on every channel, whatever the kind settings', async () => {
    const malee = await reader('th');
    const post = await announce(malee, { urgent: true, dueAt: '2027-01-12T03:00:00.000Z' });
    expect(await worker().drain()).toMatchObject({ dispatched: 1, sent: 3, skipped: 0 });
    for (const channel of [push, email, teams]) {
      expect(channel.sent).toHaveLength(1);
      expect(channel.sent[0]!.message).toMatchObject({
        title: 'สำคัญ: Safety',
        url: `http://btalk.test/topics/${post.topicId}#post-${post.number}`,
        urgent: true,
        locale: 'th',
        tag: `announcement:${post.postId}`,
        acknowledge: { postId: post.postId, ask: expect.stringMatching(/^โปรดกดรับทราบภายใน .*10:00$/) },
      });
    }
    expect((await deliveriesOf(malee.user.id)).map((d) => d.status)).toEqual(['sent', 'sent', 'sent']);
  });

  it('a non-urgent one waits for the end of the quiet hours, then goes on every channel', async () => {
    const somchai = await reader();
    const post = await announce(somchai, { urgent: false, dueAt: '2027-01-12T10:00:00.000Z' });
    expect(await worker().drain()).toMatchObject({ dispatched: 1, sent: 0, skipped: 0 });
    const held = await deliveriesOf(somchai.user.id);
    expect(held).toHaveLength(3);
    for (const d of held) {
      expect(d).toMatchObject({ status: 'pending', attempts: 0, last_error: HELD_FOR_QUIET_HOURS });
      expect(new Date(d.next_attempt_at).toISOString()).toBe('2026-11-24T00:00:00.000Z');
    }
    // A minute before the morning: still held.
    clock.set(MORNING - 60_000);
    expect(await worker().drain()).toMatchObject({ sent: 0 });
    clock.set(MORNING);
    expect(await worker().drain()).toMatchObject({ sent: 3 });
    expect(push.sent[0]!.message).toMatchObject({
      title: 'Important: Safety',
      body: 'Fire drill on Friday at 10:00.\n\nPlease acknowledge by Tue 12 Jan, 17:00.',
      urgent: false,
      acknowledge: { postId: post.postId, ask: 'Please acknowledge by Tue 12 Jan, 17:00.' },
    });
    expect(email.sent).toHaveLength(1);
    expect(teams.sent).toHaveLength(1);
    expect((await deliveriesOf(somchai.user.id)).map((d) => d.status)).toEqual(['sent', 'sent', 'sent']);
  });

  it('one held for quiet hours is not sent once acknowledged, or once the request is taken back', async () => {
    const acknowledging = await reader();
    const withdrawing = await reader();
    const acknowledged = await announce(acknowledging, { urgent: false });
    // (Their own topic's other notices are of kinds they switched off: no deliveries.)
    const withdrawn = await announce(withdrawing, { urgent: false, keepOutbox: true });
    expect(await worker().drain()).toMatchObject({ sent: 0, skipped: 0 });
    expect(await deliveriesOf(acknowledging.user.id)).toHaveLength(3);
    expect(await deliveriesOf(withdrawing.user.id)).toHaveLength(3);
    const answer = await as(server, acknowledging).post(
      `/api/posts/${acknowledged.postId}/acknowledgement`,
      {},
    );
    expect(answer.statusCode).toBe(200);
    await transact(server.ctx, async (trx) => {
      const post = await trx
        .selectFrom('posts')
        .selectAll()
        .where('id', '=', withdrawn.postId)
        .executeTakeFirstOrThrow();
      const topic = await trx
        .selectFrom('topics')
        .selectAll()
        .where('id', '=', post.topic_id)
        .executeTakeFirstOrThrow();
      const author = await trx
        .selectFrom('users')
        .selectAll()
        .where('id', '=', post.author_id)
        .executeTakeFirstOrThrow();
      await unmarkAnnouncement(trx, author, { topic, post }, null);
    });
    clock.set(MORNING);
    expect(await worker().drain()).toMatchObject({ sent: 0, skipped: 6 });
    expect(push.sent.concat(email.sent, teams.sent)).toEqual([]);
    expect((await deliveriesOf(acknowledging.user.id)).map((d) => [d.status, d.last_error])).toEqual(
      Array.from({ length: 3 }, () => ['skipped', 'acknowledged already']),
    );
    expect((await deliveriesOf(withdrawing.user.id)).map((d) => [d.status, d.last_error])).toEqual(
      Array.from({ length: 3 }, () => ['skipped', 'no longer asks for an acknowledgement']),
    );
  });

  it('an ordinary notification in the same quiet hours is still dropped; outside them all go at once', async () => {
    const anan = await reader();
    await saveSettings(
      db(),
      anan.user.id,
      {
        ...DEFAULT_SETTINGS,
        channels: { push: true, email: false, teams: false },
        quietHours: BANGKOK_NIGHT,
      },
      now(),
    );
    await announce(anan, { urgent: false, reminder: true });
    const author = await signedIn(server);
    const topic = await buildTopic(server, author);
    await buildPost(server, author, topic.id, `Hi @[Anan](user:${anan.user.id})`, {
      mentions: [anan.user.id],
    });
    await worker().drain();
    const rows = await deliveriesOf(anan.user.id);
    expect(rows.map((d) => [d.status, d.last_error]).sort()).toEqual([
      ['pending', HELD_FOR_QUIET_HOURS],
      ['skipped', 'quiet hours'],
    ]);

    // The reminder goes in the morning, worded as one.
    clock.set(MORNING);
    expect(await worker().drain()).toMatchObject({ sent: 1 });
    expect(push.sent.map((s) => s.message.title)).toEqual(['Reminder: please acknowledge a post in Safety']);

    // In the day, nothing waits.
    clock.set(Date.parse('2026-11-24T05:00:00Z'));
    const other = await reader();
    await announce(other, { urgent: false });
    await worker().drain();
    expect((await deliveriesOf(other.user.id)).map((d) => d.status)).toEqual(['sent', 'sent', 'sent']);
  });

  it('is a message of its own, never coalesced with a burst of others', async () => {
    const person = await reader();
    await saveSettings(
      db(),
      person.user.id,
      {
        ...DEFAULT_SETTINGS,
        channels: { push: true, email: false, teams: false },
      },
      now(),
    );
    clock.set(Date.parse('2026-11-24T05:00:00Z'));
    const post = await announce(person, { urgent: false });
    const author = await signedIn(server);
    const topic = await buildTopic(server, author);
    for (let i = 0; i < 2; i++) {
      await buildPost(server, author, topic.id, `Hi ${i} @[P](user:${person.user.id})`, {
        mentions: [person.user.id],
      });
    }
    expect(await worker().drain()).toMatchObject({ sent: 3 });
    expect(push.sent).toHaveLength(2);
    const alone = push.sent.find((s) => s.message.acknowledge)!;
    expect(alone.message.notifications).toHaveLength(1);
    expect(alone.message.acknowledge?.postId).toBe(post.postId);
    const burst = push.sent.find((s) => !s.message.acknowledge)!;
    expect(burst.message.notifications.map((n) => n.kind)).toEqual([
      NotificationKind.mention,
      NotificationKind.mention,
    ]);
  });
});
