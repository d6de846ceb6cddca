import { ErrorCode, NotificationEventName, NotificationKind, userRoom } from '@btalk/contracts';
import { expect, it } from 'vitest';
import { notifyCallTree } from '../../calltree/notify.ts';
import { eventsSince } from '../../events/eventLog.ts';
import { describeEachDatabase } from '../../test/db.ts';
import { useTestServer } from '../../test/server.ts';
import { type SignedIn, signedIn } from '../../test/session.ts';
import { as, dataOf } from '../../test/topics.ts';

interface Listed {
  items: { id: string; kind: string; title: string; data: Record<string, unknown>; readAt: string | null }[];
  nextCursor: string | null;
  unreadCount: number;
}

describeEachDatabase('GET /api/notifications and POST /api/notifications/read', (kind) => {
  const server = useTestServer(kind);

  /** Writes `count` notifications for `who`, one minute apart, the way escalations do. */
  const notify = async (who: SignedIn, count: number) => {
    for (let i = 0; i < count; i++) {
      await notifyCallTree(
        server.ctx.db.kysely,
        [
          {
            userId: who.user.id,
            kind: NotificationKind.callReminder,
            title: `Reminder ${i}`,
            body: 'Please answer: are you safe?',
            data: { eventId: `event-${i}`, eventTitle: `Fire ${i}` },
          },
        ],
        new Date(Date.UTC(2026, 0, 1, 9, i)).toISOString(),
        null,
      );
    }
  };
  const list = async (who: SignedIn, query = '') =>
    dataOf<Listed>(await as(server, who).get(`/api/notifications${query}`));

  it('require authentication', async () => {
    const get = await as(server, null).get('/api/notifications');
    expect(get.statusCode).toBe(401);
    expect(get.json().code).toBe(ErrorCode.unauthenticated);
    expect((await as(server, null).post('/api/notifications/read', { all: true })).statusCode).toBe(401);
  });

  it('lists only mine, newest first, page by page, with the unread count', async () => {
    const me = await signedIn(server);
    const other = await signedIn(server);
    await notify(me, 3);
    await notify(other, 2);
    const first = await list(me, '?limit=2');
    expect(first.items.map((n) => n.title)).toEqual(['Reminder 2', 'Reminder 1']);
    expect(first.items[0]).toMatchObject({
      kind: NotificationKind.callReminder,
      data: { eventId: 'event-2', eventTitle: 'Fire 2' },
      readAt: null,
    });
    expect(first.unreadCount).toBe(3);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await list(me, `?limit=2&cursor=${first.nextCursor}`);
    expect(second.items.map((n) => n.title)).toEqual(['Reminder 0']);
    expect(second.nextCursor).toBeNull();
    expect((await list(await signedIn(server))).items).toEqual([]);
  });

  it('marks given ids, then all, as read; read ones stay read', async () => {
    const me = await signedIn(server);
    await notify(me, 3);
    const [newest] = (await list(me)).items;
    const marked = dataOf(await as(server, me).post('/api/notifications/read', { ids: [newest!.id] }));
    expect(marked).toEqual({ marked: 1, unreadCount: 2 });
    const after = await list(me);
    expect(after.unreadCount).toBe(2);
    expect(after.items[0]!.readAt).toEqual(expect.any(String));
    expect(dataOf(await as(server, me).post('/api/notifications/read', { ids: [newest!.id] }))).toEqual({
      marked: 0,
      unreadCount: 2,
    });
    expect(dataOf(await as(server, me).post('/api/notifications/read', { all: true }))).toEqual({
      marked: 2,
      unreadCount: 0,
    });
    expect((await list(me)).items.every((n) => n.readAt !== null)).toBe(true);
  });

  it('tells my other tabs and devices what was marked read, and only when something was', async () => {
    const me = await signedIn(server);
    await notify(me, 3);
    const [newest] = (await list(me)).items;
    const seq = await server.ctx.db.kysely
      .selectFrom('events')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .executeTakeFirst();
    const since = Number(seq?.seq ?? 0);
    await as(server, me).post('/api/notifications/read', { ids: [newest!.id] });
    await as(server, me).post('/api/notifications/read', { ids: [newest!.id] });
    await as(server, me).post('/api/notifications/read', { all: true });
    await as(server, me).post('/api/notifications/read', { all: true });
    const events = await eventsSince(server.ctx.db.kysely, [userRoom(me.user.id)], since, 100);
    expect(events.map((e) => [e.type, e.payload, e.actorId])).toEqual([
      [NotificationEventName.read, { ids: [newest!.id], unreadCount: 2 }, me.user.id],
      [NotificationEventName.read, { ids: null, unreadCount: 0 }, me.user.id],
    ]);
  });

  it("refuses another person's ids and unknown ids without marking anything", async () => {
    const me = await signedIn(server);
    const other = await signedIn(server);
    await notify(me, 1);
    await notify(other, 1);
    const [mine] = (await list(me)).items;
    const [theirs] = (await list(other)).items;
    const res = await as(server, me).post('/api/notifications/read', { ids: [mine!.id, theirs!.id] });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe(ErrorCode.notFound);
    expect((await as(server, me).post('/api/notifications/read', { ids: ['no-such-id'] })).statusCode).toBe(
      404,
    );
    expect((await list(me)).unreadCount).toBe(1);
    expect((await list(other)).unreadCount).toBe(1);
    // "all" never reaches someone else's notifications.
    await as(server, me).post('/api/notifications/read', { all: true });
    expect((await list(other)).unreadCount).toBe(1);
  });

  it('names bad input', async () => {
    const me = await signedIn(server);
    const badLimit = await as(server, me).get('/api/notifications?limit=0');
    expect(badLimit.statusCode).toBe(400);
    expect(badLimit.json()).toMatchObject({
      code: ErrorCode.validation,
      details: [{ field: 'query.limit' }],
    });
    const badCursor = await as(server, me).get('/api/notifications?cursor=nonsense');
    expect(badCursor.statusCode).toBe(400);
    expect(badCursor.json().details[0].field).toBe('query.cursor');
    for (const body of [{}, { ids: [] }, { ids: ['a'], all: true }, { all: false }]) {
      const res = await as(server, me).post('/api/notifications/read', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe(ErrorCode.validation);
    }
  });
});
