import { NotificationKind } from '@btalk/contracts';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { transact } from '../../commands/transact.ts';
import type { UserRow } from '../../db/schema.ts';
import { now } from '../../ids.ts';
import { BotConnector } from '../../teams/connector.ts';
import { isTeamsConnected, saveConversation } from '../../teams/conversations.ts';
import { BotConnectorStandIn } from '../../test/botConnector.ts';
import { buildOrg } from '../../test/calltree.ts';
import { describeEachDatabase } from '../../test/db.ts';
import { setAsideOutbox } from '../../test/outbox.ts';
import { useTestServer } from '../../test/server.ts';
import { signedIn } from '../../test/session.ts';
import { as, buildPost, buildTopic, dataOf } from '../../test/topics.ts';
import { notify } from '../notifier.ts';
import { DEFAULT_SETTINGS, saveSettings } from '../settings.ts';
import { NotificationWorker } from '../worker.ts';
import { createTeamsChannel } from './teams.ts';

const TEAMS_APP_ID = '3f2d6a4e-7c1b-4e8a-9d5f-0a1b2c3d4e5f';

/** A clock that moves only when told. */
function manualClock(start = Date.now()) {
  let t = start;
  return { now: () => new Date(t), advance: (ms: number) => (t += ms) };
}

type Card = { body: Record<string, unknown>[]; actions?: Record<string, unknown>[] };
const cardOf = (activity: Record<string, unknown>): Card =>
  (activity.attachments as { contentType: string; content: Card }[])[0]!.content;
/** Every literal text of a card (TextRuns of RichTextBlocks). */
const textsOf = (card: Card): string[] =>
  card.body.flatMap((b) => ((b.inlines as { text: string }[] | undefined) ?? []).map((i) => i.text));
/** Every action of a card, in its body's action sets and its own actions. */
const actionsOf = (card: Card): Record<string, unknown>[] => [
  ...card.body.flatMap((b) => (b.type === 'ActionSet' ? (b.actions as Record<string, unknown>[]) : [])),
  ...(card.actions ?? []),
];

describeEachDatabase('Teams channel (against a local Bot Connector)', (kind) => {
  const server = useTestServer(kind);
  const stand = new BotConnectorStandIn();
  let connector: BotConnector;
  let clock: ReturnType<typeof manualClock>;
  const db = () => server.ctx.db.kysely;
  const worker = () =>
    new NotificationWorker({
      db: db(),
      channels: [
        createTeamsChannel({
          db: db(),
          config: { teamsAppId: TEAMS_APP_ID, publicUrl: 'http://btalk.test' },
          connector,
          clock: clock.now,
        }),
      ],
      publicUrl: 'http://btalk.test',
      clock: clock.now,
      random: () => 1,
      maxAttempts: 5,
      emailDelayMs: 0,
    });
  const conversation = (user: UserRow) => `a:1on1-${user.id}`;
  const connect = (user: UserRow) =>
    saveConversation(db(), {
      userId: user.id,
      tenantId: 'tenant-1',
      serviceUrl: stand.serviceUrl,
      conversationId: conversation(user),
      botId: '28:bot-app-id',
    });
  const teamsDeliveriesOf = (userId: string) =>
    db()
      .selectFrom('notification_deliveries')
      .selectAll()
      .where('user_id', '=', userId)
      .where('channel', '=', 'teams')
      .orderBy('created_at')
      .execute();

  beforeAll(async () => {
    await stand.start();
    connector = new BotConnector(stand.credentials);
  });
  afterAll(() => stand.stop());
  beforeEach(async () => {
    clock = manualClock();
    // Earlier tests' leftovers are not this test's business.
    await setAsideOutbox(db());
  });

  it('a post notification reaches a connected person as a card: who, topic, text, Open in BTalk, Stop notifications', async () => {
    const somchai = await signedIn(server, { display_name: 'Somchai' });
    const malee = await signedIn(server, { display_name: 'Malee' });
    const outsider = await signedIn(server);
    await connect(malee.user);
    const topic = await buildTopic(server, somchai, { title: 'Safety drill' });
    const body = [
      `**Please** check @[Malee](user:${malee.user.id}) <img src=x onerror=alert(1)>`,
      '- the [exits](javascript:alert(1))',
    ].join('\n');
    const post = await buildPost(server, somchai, topic.id, body, {
      mentions: [malee.user.id, outsider.user.id],
    });

    expect(await worker().drain()).toMatchObject({ sent: 1 });
    const got = stand.received.filter((r) => r.conversationId === conversation(malee.user));
    expect(got).toHaveLength(1);
    // With a token from the stand-in's token endpoint (it refuses any other).
    expect(got[0]!.authorization).toMatch(/^Bearer .+/);
    expect(got[0]!.activity).toMatchObject({ type: 'message', importance: 'normal' });
    const card = cardOf(got[0]!.activity);
    expect(card).toMatchObject({ type: 'AdaptiveCard' });
    const texts = textsOf(card);
    expect(texts[0]).toBe('Somchai mentioned you in Safety drill');
    expect(texts).toContain('Safety drill');
    // The first lines as literal text: the mention as a name, no HTML, no Markdown, no link.
    expect(texts).toContain('Please check @Malee');
    expect(texts).toContain('• the exits');
    expect(JSON.stringify(card)).not.toMatch(/onerror|javascript:|\*\*/);
    const path = `/topics/${topic.id}#post-${post.number}`;
    expect(actionsOf(card)).toEqual([
      {
        type: 'Action.OpenUrl',
        title: 'Open in BTalk',
        url: `https://teams.microsoft.com/l/entity/${TEAMS_APP_ID}/btalk?context=${encodeURIComponent(JSON.stringify({ subEntityId: path }))}`,
      },
      {
        type: 'Action.Execute',
        title: 'Stop notifications for this post',
        verb: 'post.mute',
        data: { postId: post.id },
      },
    ]);
    // A person who has not added the app in Teams is skipped, not retried.
    expect(await teamsDeliveriesOf(outsider.user.id)).toMatchObject([
      { status: 'skipped', last_error: 'not connected in Teams' },
    ]);

    // The next message reuses the token.
    await buildPost(server, somchai, topic.id, `Again @[Malee](user:${malee.user.id})`, {
      mentions: [malee.user.id],
    });
    expect(await worker().drain()).toMatchObject({ sent: 1 });
    expect(stand.activitiesOf(conversation(malee.user))).toHaveLength(2);
    expect(stand.tokenRequests).toBe(1);
  });

  it("429: waits for the Bot Connector's Retry-After, then sends", async () => {
    const author = await signedIn(server);
    const malee = await signedIn(server);
    await connect(malee.user);
    const topic = await buildTopic(server, author);
    await buildPost(server, author, topic.id, `Hi @[M](user:${malee.user.id})`, {
      mentions: [malee.user.id],
    });
    stand.answerNext({ status: 429, retryAfter: '120' });

    const w = worker();
    expect(await w.drain()).toMatchObject({ failed: 1, sent: 0 });
    expect(await teamsDeliveriesOf(malee.user.id)).toMatchObject([
      { status: 'pending', attempts: 1, last_error: expect.stringContaining('429') },
    ]);
    // The worker's own backoff (10 s here) has passed, the connector's 120 s have not.
    clock.advance(60_000);
    expect(await w.drain()).toMatchObject({ sent: 0, failed: 0 });
    expect(stand.activitiesOf(conversation(malee.user))).toHaveLength(0);
    clock.advance(61_000);
    expect(await w.drain()).toMatchObject({ sent: 1 });
    expect(stand.activitiesOf(conversation(malee.user))).toHaveLength(1);
    expect(await teamsDeliveriesOf(malee.user.id)).toMatchObject([{ status: 'sent', attempts: 2 }]);
  });

  it('403: the conversation is disconnected (user_enable false) and nothing more is sent to it', async () => {
    const author = await signedIn(server);
    const malee = await signedIn(server);
    await connect(malee.user);
    stand.gone(conversation(malee.user));
    const topic = await buildTopic(server, author);
    await buildPost(server, author, topic.id, `Hi @[M](user:${malee.user.id})`, {
      mentions: [malee.user.id],
    });

    expect(await worker().drain()).toMatchObject({ skipped: 1, failed: 0 });
    expect(await teamsDeliveriesOf(malee.user.id)).toMatchObject([
      { status: 'skipped', last_error: expect.stringContaining('403') },
    ]);
    expect(await isTeamsConnected(db(), malee.user.id)).toBe(false);
    const row = await db()
      .selectFrom('teams_conversations')
      .selectAll()
      .where('user_id', '=', malee.user.id)
      .executeTakeFirstOrThrow();
    expect(row.removed_reason).toBe('Teams answered 403');

    const tried = stand.requests.filter((c) => c === conversation(malee.user)).length;
    await buildPost(server, author, topic.id, `Again @[M](user:${malee.user.id})`, {
      mentions: [malee.user.id],
    });
    clock.advance(3_600_000);
    await worker().drain();
    expect(stand.requests.filter((c) => c === conversation(malee.user)).length).toBe(tried);
  });

  it("keeps a conversation's order: messages made after one waiting for a retry wait behind it", async () => {
    const malee = await signedIn(server);
    await connect(malee.user);
    const call = (title: string) => ({
      userId: malee.user.id,
      kind: NotificationKind.callStarted,
      urgent: true,
      title,
      body: title,
      data: { eventTitle: title },
    });
    await notify(db(), [call('First')], clock.now().toISOString(), null);
    stand.answerNext({ status: 429, retryAfter: '30' });
    const w = worker();
    expect(await w.drain()).toMatchObject({ failed: 1 });

    clock.advance(11_000);
    await notify(db(), [call('Second')], clock.now().toISOString(), null);
    clock.advance(1);
    await notify(
      db(),
      [
        {
          userId: malee.user.id,
          kind: NotificationKind.mention,
          urgent: false,
          title: 'Third',
          body: 'Third',
          data: { actorName: 'Somchai', topicTitle: 'Third' },
        },
      ],
      clock.now().toISOString(),
      null,
    );
    // The first still waits for its Retry-After: the later two may not overtake it.
    await w.drain();
    expect(stand.activitiesOf(conversation(malee.user))).toEqual([]);

    clock.advance(60_000);
    await w.drain();
    const titles = stand.activitiesOf(conversation(malee.user)).map((a) => textsOf(cardOf(a))[0]);
    expect(titles).toEqual([
      '⚠ Urgent: First: are you safe?',
      '⚠ Urgent: Second: are you safe?',
      'Somchai mentioned you in Third',
    ]);
    expect((await teamsDeliveriesOf(malee.user.id)).map((d) => d.status)).toEqual(['sent', 'sent', 'sent']);
  });

  it('a call-tree event reaches a connected target as an urgent card with its answer buttons', async () => {
    const admin = await signedIn(server, { role: 'admin' });
    const org = await buildOrg(server);
    await connect(org.c1);
    const treeId = dataOf<{ tree: { id: string } }>(
      await as(server, admin).post('/api/calltree/trees', { name: 'Head office', rootUserId: org.ceo.id }),
    ).tree.id;
    const event = dataOf<{ id: string }>(
      await as(server, admin).post(`/api/calltree/trees/${treeId}/events`, {
        title: 'Fire alarm',
        message: 'Leave building B by the **east** stairs.',
        kind: 'real',
      }),
    );
    await worker().drain();
    const got = stand.activitiesOf(conversation(org.c1));
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ type: 'message', importance: 'high' });
    const card = cardOf(got[0]!);
    const texts = textsOf(card);
    expect(texts[0]).toBe('⚠ Urgent: Fire alarm: are you safe?');
    expect(texts).toContain('Leave building B by the east stairs.');
    const buttons = actionsOf(card).filter((a) => a.type === 'Action.Execute');
    expect(buttons).toMatchObject([
      { title: 'Safe', verb: 'calltree.answer', data: { eventId: event.id, optionId: 'safe' } },
      { title: 'Need help', verb: 'calltree.answer', data: { eventId: event.id, optionId: 'need_help' } },
    ]);
    const ids = buttons.map((b) => (b.data as { answerId: string }).answerId);
    expect(ids[0]).toMatch(/^[\w-]{8,64}$/);
    expect(ids[1]).toBe(ids[0]);
    // Targets who have not added the app are skipped.
    expect(await teamsDeliveriesOf(org.c2.id)).toMatchObject([{ status: 'skipped' }]);
  });

  /** Marks a new post of a members' topic important through the API: its other member, `to`, is asked. */
  async function announce(to: UserRow, urgent: boolean, dueAt: string | null) {
    const author = await signedIn(server);
    const topic = await buildTopic(server, author, {
      title: 'Safety',
      visibility: 'members',
      memberIds: [to.id],
    });
    const post = await buildPost(server, author, topic.id, '**Fire drill** on Friday.\n\n<b>Be there</b>');
    await setAsideOutbox(db());
    expect(
      (await as(server, author).put(`/api/posts/${post.id}/announcement`, { urgent, dueAt })).statusCode,
    ).toBe(200);
    return { topic, post };
  }

  it('an important post comes as a card: Important, topic, text, the request with its due time, Acknowledge, Open in BTalk', async () => {
    const malee = await signedIn(server, { display_name: 'Malee', locale: 'th' });
    await connect(malee.user);
    // 17:00 in Bangkok (the default time zone).
    const { topic, post } = await announce(malee.user, true, '2027-01-15T10:00:00.000Z');
    expect(await worker().drain()).toMatchObject({ sent: 1 });
    const [activity] = stand.activitiesOf(conversation(malee.user));
    expect(activity).toMatchObject({ type: 'message', importance: 'high' });
    const card = cardOf(activity!);
    const texts = textsOf(card);
    expect(texts[0]).toBe('⚠ สำคัญ: Safety');
    expect(texts).toContain('Safety');
    expect(texts).toContain('Fire drill on Friday.');
    expect(texts).toContain('Be there');
    expect(texts.at(-1)).toMatch(/^โปรดกดรับทราบภายใน .*15.*17:00$/);
    expect(JSON.stringify(card)).not.toMatch(/<b>|\*\*/);
    const path = `/topics/${topic.id}#post-${post.number}`;
    expect(actionsOf(card)).toEqual([
      {
        type: 'Action.Execute',
        title: 'รับทราบ',
        verb: 'announcement.acknowledge',
        data: { postId: post.id },
        style: 'positive',
      },
      {
        type: 'Action.OpenUrl',
        title: 'เปิดใน BTalk',
        url: `https://teams.microsoft.com/l/entity/${TEAMS_APP_ID}/btalk?context=${encodeURIComponent(JSON.stringify({ subEntityId: path }))}`,
      },
    ]);
  });

  it('an announcement held for quiet hours does not hold up a call-tree card sent meanwhile', async () => {
    const anan = await signedIn(server);
    await connect(anan.user);
    await saveSettings(
      db(),
      anan.user.id,
      {
        ...DEFAULT_SETTINGS,
        quietHours: { enabled: true, start: '22:00', end: '07:00', timeZone: 'Asia/Bangkok' },
      },
      now(),
    );
    // 23:00 in Bangkok.
    clock = manualClock(Date.parse('2026-11-23T16:00:00Z'));
    await announce(anan.user, false, null);
    expect(await worker().drain()).toMatchObject({ dispatched: 1, sent: 0 });
    await transact(server.ctx, (trx) =>
      notify(
        trx,
        [
          {
            userId: anan.user.id,
            kind: NotificationKind.callStarted,
            urgent: true,
            title: 'Fire',
            body: 'Are you safe?',
            data: { eventId: 'e1', eventTitle: 'Fire' },
          },
        ],
        // Made after the announcement (whose notice the API wrote at the real time).
        now(),
        null,
      ),
    );
    expect(await worker().drain()).toMatchObject({ dispatched: 1, sent: 1 });
    expect(textsOf(cardOf(stand.activitiesOf(conversation(anan.user))[0]!))[0]).toBe(
      '⚠ Urgent: Fire: are you safe?',
    );
    // In the morning the announcement follows.
    clock.advance(8 * 60 * 60 * 1000);
    expect(await worker().drain()).toMatchObject({ sent: 1 });
    const cards = stand.activitiesOf(conversation(anan.user)).map((a) => textsOf(cardOf(a))[0]);
    expect(cards).toEqual(['⚠ Urgent: Fire: are you safe?', 'Important: Safety']);
    expect(textsOf(cardOf(stand.activitiesOf(conversation(anan.user))[1]!)).at(-1)).toBe(
      'Please acknowledge.',
    );
  });
});
