import { ErrorCode, EventName, type Topic, userRoom } from '@btalk/contracts';
import { expect, it } from 'vitest';
import { eventsSince } from '../../events/eventLog.ts';
import { describeEachDatabase } from '../../test/db.ts';
import { useTestServer } from '../../test/server.ts';
import { type SignedIn, signedIn } from '../../test/session.ts';
import { as, buildTopic, dataOf } from '../../test/topics.ts';

describeEachDatabase('PUT /api/topics/:topicId/notifications', (kind) => {
  const server = useTestServer(kind);

  const setLevel = (who: SignedIn | null, topicId: string, body: unknown) =>
    as(server, who).put(`/api/topics/${topicId}/notifications`, body);
  const topicAs = async (who: SignedIn, topicId: string) =>
    dataOf<Topic>(await as(server, who).get(`/api/topics/${topicId}`));
  const lastSeq = async () =>
    Number(
      (
        await server.ctx.db.kysely
          .selectFrom('events')
          .select((eb) => eb.fn.max('seq').as('seq'))
          .executeTakeFirst()
      )?.seq ?? 0,
    );

  it('requires authentication', async () => {
    const owner = await signedIn(server);
    const topic = await buildTopic(server, owner);
    const res = await setLevel(null, topic.id, { level: 'muted' });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe(ErrorCode.unauthenticated);
  });

  it('answers 404 for a members-only topic the caller cannot see, and stores nothing', async () => {
    const owner = await signedIn(server);
    const stranger = await signedIn(server);
    const topic = await buildTopic(server, owner, { visibility: 'members' });
    for (const id of [topic.id, 'no-such-topic']) {
      const res = await setLevel(stranger, id, { level: 'all' });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe(ErrorCode.notFound);
    }
    const rows = await server.ctx.db.kysely
      .selectFrom('topic_notification_levels')
      .selectAll()
      .where('user_id', '=', stranger.user.id)
      .execute();
    expect(rows).toEqual([]);
  });

  it('names bad levels and unknown keys', async () => {
    const owner = await signedIn(server);
    const topic = await buildTopic(server, owner);
    for (const [body, field] of [
      [{ level: 'loud' }, 'body.level'],
      [{}, 'body.level'],
      [{ level: 'all', sound: true }, 'body.sound'],
    ] as const) {
      const res = await setLevel(owner, topic.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
    }
    expect((await topicAs(owner, topic.id)).notificationLevel).toBe('mentions');
  });

  it("defaults to 'all' for members of members-only topics and 'mentions' for organisation-wide ones", async () => {
    const owner = await signedIn(server);
    const member = await signedIn(server);
    const reader = await signedIn(server);
    const team = await buildTopic(server, owner, { visibility: 'members', memberIds: [member.user.id] });
    const everyone = await buildTopic(server, owner);
    expect((await topicAs(owner, team.id)).notificationLevel).toBe('all');
    expect((await topicAs(member, team.id)).notificationLevel).toBe('all');
    expect((await topicAs(owner, everyone.id)).notificationLevel).toBe('mentions');
    expect((await topicAs(reader, everyone.id)).notificationLevel).toBe('mentions');
  });

  it('keeps my choice, shows it in the topic and the list, tells my other tabs, and leaves others alone', async () => {
    const owner = await signedIn(server);
    const me = await signedIn(server);
    const topic = await buildTopic(server, owner, { visibility: 'members', memberIds: [me.user.id] });
    const since = await lastSeq();

    const muted = dataOf<Topic>(await setLevel(me, topic.id, { level: 'muted' }));
    expect(muted).toMatchObject({ id: topic.id, notificationLevel: 'muted', myRole: 'member' });
    expect((await topicAs(me, topic.id)).notificationLevel).toBe('muted');
    const listed = dataOf<{ items: Topic[] }>(await as(server, me).get('/api/topics?scope=mine'));
    expect(listed.items.find((t) => t.id === topic.id)?.notificationLevel).toBe('muted');
    expect((await topicAs(owner, topic.id)).notificationLevel).toBe('all');

    expect(dataOf<Topic>(await setLevel(me, topic.id, { level: 'mentions' })).notificationLevel).toBe(
      'mentions',
    );
    const events = await eventsSince(server.ctx.db.kysely, [userRoom(me.user.id)], since, 100);
    expect(events.map((e) => [e.type, e.payload])).toEqual([
      [EventName.myNotificationLevelChanged, { topicId: topic.id, level: 'muted' }],
      [EventName.myNotificationLevelChanged, { topicId: topic.id, level: 'mentions' }],
    ]);
  });
});
