import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { now } from '../ids.ts';
import { DEFAULT_SETTINGS, saveSettings } from '../notifications/settings.ts';
import { buildOrg, type Org } from '../test/calltree.ts';
import { describeEachDatabase } from '../test/db.ts';
import { useTestServer } from '../test/server.ts';
import { type SignedIn, signedIn } from '../test/session.ts';
import { as, buildPost, buildTopic, dataOf } from '../test/topics.ts';
import { handleCardAction } from './cardActions.ts';

/** Every literal text of an answered card. */
const textsOf = (card: unknown): string[] =>
  (JSON.parse(JSON.stringify(card)) as { body: { inlines?: { text: string }[] }[] }).body.flatMap((b) =>
    (b.inlines ?? []).map((i) => i.text),
  );

describeEachDatabase('Teams card actions', (kind) => {
  const server = useTestServer(kind);
  const db = () => server.ctx.db.kysely;
  let admin: SignedIn;
  let org: Org;
  let treeId: string;

  const newEvent = async () =>
    dataOf<{ id: string }>(
      await as(server, admin).post(`/api/calltree/trees/${treeId}/events`, {
        title: 'Fire alarm',
        message: 'Leave building B.',
        kind: 'real',
      }),
    );
  const answersOf = (eventId: string) =>
    db().selectFrom('call_answers').selectAll().where('event_id', '=', eventId).execute();

  beforeAll(async () => {
    admin = await signedIn(server, { role: 'admin' });
    org = await buildOrg(server);
    treeId = dataOf<{ tree: { id: string } }>(
      await as(server, admin).post('/api/calltree/trees', { name: 'Head office', rootUserId: org.ceo.id }),
    ).tree.id;
  });

  it("calltree.answer records the person's own answer once for two presses of the card, and says so", async () => {
    const event = await newEvent();
    const press = {
      verb: 'calltree.answer',
      data: { eventId: event.id, optionId: 'safe', answerId: randomUUID() },
    };
    const first = await handleCardAction(server.ctx, org.c1, press);
    const second = await handleCardAction(server.ctx, org.c1, press);
    const answers = await answersOf(event.id);
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({
      user_id: org.c1.id,
      answered_by: org.c1.id,
      on_behalf: 0,
      status: 'safe',
    });
    const target = await db()
      .selectFrom('call_event_targets')
      .selectAll()
      .where('event_id', '=', event.id)
      .where('user_id', '=', org.c1.id)
      .executeTakeFirstOrThrow();
    expect(target).toMatchObject({ status: 'safe', answer_id: answers[0]!.id });
    expect(textsOf(first)).toEqual([
      'Fire alarm',
      expect.stringMatching(/^You answered Safe at \d\d:\d\d\.$/),
    ]);
    expect(textsOf(second)).toEqual(textsOf(first));
  });

  it('in Thai for a Thai person', async () => {
    const event = await newEvent();
    await db().updateTable('users').set({ locale: 'th' }).where('id', '=', org.c2.id).execute();
    const card = await handleCardAction(
      server.ctx,
      { ...org.c2, locale: 'th' },
      { verb: 'calltree.answer', data: { eventId: event.id, optionId: 'need_help', answerId: randomUUID() } },
    );
    expect(textsOf(card)[1]).toMatch(/^คุณตอบว่า Need help เมื่อเวลา \d\d:\d\d$/);
  });

  it('refuses with a card, writing nothing: a stranger, a closed event, an unknown option or bad data', async () => {
    const event = await newEvent();
    const stranger = await signedIn(server);
    const press = (optionId = 'safe') => ({
      verb: 'calltree.answer',
      data: { eventId: event.id, optionId, answerId: randomUUID() },
    });
    expect(textsOf(await handleCardAction(server.ctx, stranger.user, press()))).toEqual([
      'This call-tree event does not ask you for an answer.',
    ]);
    // An admin who may see the event is not asked for an answer either.
    expect(textsOf(await handleCardAction(server.ctx, admin.user, press()))).toEqual([
      'This call-tree event does not ask you for an answer.',
    ]);
    expect(textsOf(await handleCardAction(server.ctx, org.c1, press('maybe')))).toEqual([
      'This action was not understood. Open BTalk to do it there.',
    ]);
    const bad: unknown[] = [
      undefined,
      'safe',
      { eventId: event.id, optionId: 'safe' },
      { eventId: event.id, optionId: 'safe', answerId: 'short' },
      { eventId: event.id, optionId: 'safe', answerId: "x'; drop table" },
    ];
    for (const data of bad) {
      expect(textsOf(await handleCardAction(server.ctx, org.c1, { verb: 'calltree.answer', data }))).toEqual([
        'This action was not understood. Open BTalk to do it there.',
      ]);
    }
    expect(
      textsOf(await handleCardAction(server.ctx, org.c1, { verb: 'calltree.delete', data: press().data })),
    ).toEqual(['This action was not understood. Open BTalk to do it there.']);
    expect(await answersOf(event.id)).toEqual([]);

    expect((await as(server, admin).post(`/api/calltree/events/${event.id}/close`, {})).statusCode).toBe(200);
    expect(textsOf(await handleCardAction(server.ctx, org.c1, press()))).toEqual([
      'This call-tree event is closed; answers are frozen. Contact your manager directly.',
    ]);
    expect(await answersOf(event.id)).toEqual([]);
  });

  it("post.mute turns the person's bell on the post off; a post they cannot see answers a card", async () => {
    const author = await signedIn(server);
    const reader = await signedIn(server);
    const topic = await buildTopic(server, author);
    const post = await buildPost(server, author, topic.id, 'Water is rising');
    expect((await as(server, reader).put(`/api/posts/${post.id}/bell`, { bell: 'ring' })).statusCode).toBe(
      200,
    );

    const card = await handleCardAction(server.ctx, reader.user, {
      verb: 'post.mute',
      data: { postId: post.id },
    });
    expect(textsOf(card)).toEqual([
      'Notifications for this post are off. You can turn them on again from the post in BTalk.',
    ]);
    const bell = await db()
      .selectFrom('post_bells')
      .selectAll()
      .where('post_id', '=', post.id)
      .where('user_id', '=', reader.user.id)
      .executeTakeFirstOrThrow();
    expect(bell.ringing).toBe(0);
    const view = dataOf<{ bell: string }>(await as(server, reader).get(`/api/posts/${post.id}`));
    expect(view.bell).toBe('off');

    const secret = await buildTopic(server, author, { visibility: 'members' });
    const hidden = await buildPost(server, author, secret.id, 'Members only');
    expect(
      textsOf(
        await handleCardAction(server.ctx, reader.user, { verb: 'post.mute', data: { postId: hidden.id } }),
      ),
    ).toEqual(['This post no longer exists, or you can no longer see it.']);
    expect(
      await db().selectFrom('post_bells').select('user_id').where('post_id', '=', hidden.id).execute(),
    ).not.toContainEqual({ user_id: reader.user.id });
    expect(
      textsOf(await handleCardAction(server.ctx, reader.user, { verb: 'post.mute', data: { postId: 42 } })),
    ).toEqual(['This action was not understood. Open BTalk to do it there.']);
  });

  it('announcement.acknowledge acknowledges once and says when, in the person’s time zone; a second press says the same', async () => {
    const author = await signedIn(server);
    const reader = await signedIn(server);
    await saveSettings(
      db(),
      reader.user.id,
      { ...DEFAULT_SETTINGS, quietHours: { ...DEFAULT_SETTINGS.quietHours, timeZone: 'America/New_York' } },
      now(),
    );
    const topic = await buildTopic(server, author, { title: 'Safety' });
    const post = await buildPost(server, author, topic.id, 'Fire drill on Friday.');
    expect((await as(server, author).put(`/api/posts/${post.id}/announcement`, {})).statusCode).toBe(200);

    const press = { verb: 'announcement.acknowledge', data: { postId: post.id } };
    const first = await handleCardAction(server.ctx, reader.user, press);
    const row = await db()
      .selectFrom('announcement_recipients')
      .selectAll()
      .where('post_id', '=', post.id)
      .where('user_id', '=', reader.user.id)
      .executeTakeFirstOrThrow();
    expect(row.acknowledged_at).toBeTruthy();
    const time = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'America/New_York',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(new Date(row.acknowledged_at!));
    expect(textsOf(first)).toEqual(['Important: Safety', `Acknowledged at ${time}.`]);
    const json = JSON.stringify(first);
    expect(json).toContain(`/topics/${topic.id}#post-${post.number}`);
    expect(json).not.toContain('announcement.acknowledge');

    const second = await handleCardAction(server.ctx, reader.user, press);
    expect(textsOf(second)).toEqual(textsOf(first));
    const again = await db()
      .selectFrom('announcement_recipients')
      .select('acknowledged_at')
      .where('post_id', '=', post.id)
      .where('user_id', '=', reader.user.id)
      .executeTakeFirstOrThrow();
    expect(again.acknowledged_at).toBe(row.acknowledged_at);

    // In Thai for a Thai person.
    const thai = await signedIn(server, { locale: 'th' });
    expect(textsOf(await handleCardAction(server.ctx, thai.user, press))).toEqual([
      'สำคัญ: Safety',
      expect.stringMatching(/^รับทราบแล้วเมื่อเวลา \d\d:\d\d$/),
    ]);
  });

  it('announcement.acknowledge refuses with a card, writing nothing: a post one cannot see, one that does not ask, bad data', async () => {
    const author = await signedIn(server);
    const stranger = await signedIn(server);
    const secret = await buildTopic(server, author, { visibility: 'members' });
    const hidden = await buildPost(server, author, secret.id, 'Members only');
    expect((await as(server, author).put(`/api/posts/${hidden.id}/announcement`, {})).statusCode).toBe(200);
    const acknowledge = (postId: unknown) =>
      handleCardAction(server.ctx, stranger.user, { verb: 'announcement.acknowledge', data: { postId } });
    expect(textsOf(await acknowledge(hidden.id))).toEqual([
      'This post no longer exists, or you can no longer see it.',
    ]);
    expect(textsOf(await acknowledge(randomUUID()))).toEqual([
      'This post no longer exists, or you can no longer see it.',
    ]);
    const open = await buildTopic(server, author);
    const plain = await buildPost(server, author, open.id, 'Just news');
    expect(textsOf(await acknowledge(plain.id))).toEqual([
      'This post no longer asks for an acknowledgement.',
    ]);
    expect(
      textsOf(
        await handleCardAction(server.ctx, author.user, {
          verb: 'announcement.acknowledge',
          data: { postId: hidden.id },
        }),
      ),
    ).toEqual(['You wrote this post: its readers acknowledge it.']);
    for (const postId of [42, '', 'x'.repeat(65), undefined]) {
      expect(textsOf(await acknowledge(postId))).toEqual([
        'This action was not understood. Open BTalk to do it there.',
      ]);
    }
    const written = await db()
      .selectFrom('announcement_recipients')
      .select('post_id')
      .where('user_id', '=', stranger.user.id)
      .where('acknowledged_at', 'is not', null)
      .execute();
    expect(written).toEqual([]);
  });
});
