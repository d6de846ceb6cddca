import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { openDatabase } from '../db/index.ts';
import { headersFor, runningEvent as startRunningEvent } from '../test/calltree.ts';
import { describeEachDatabase, TEST_DATABASE_URL } from '../test/db.ts';
import { useTestServer } from '../test/server.ts';
import { type SignedIn, signedIn } from '../test/session.ts';
import { EscalationScheduler, escalateDue } from './escalation.ts';

const MINUTE = 60_000;

describeEachDatabase('call-tree escalation scheduler', (kind) => {
  const server = useTestServer(kind);
  let admin: SignedIn;

  beforeAll(async () => {
    admin = await signedIn(server, { role: 'admin' });
  });

  const runningEvent = () => startRunningEvent(server, admin.headers);

  async function escalations(eventId: string) {
    return server.ctx.db.kysely
      .selectFrom('call_escalations')
      .select(['user_id', 'notified_user_id', 'level'])
      .where('event_id', '=', eventId)
      .orderBy('level')
      .orderBy('user_id')
      .execute();
  }

  const scheduler = (clock: () => Date, holder: string = randomUUID()) =>
    new EscalationScheduler({ db: server.ctx.db.kysely, bus: server.ctx.bus, now: clock, holder });

  it('tells the manager after the delay, then the next manager up, never twice, and stops at an answer', async () => {
    const { org, eventId, startedAt } = await runningEvent();
    const c2 = await headersFor(server, org.c2);
    const answered = await server.request({
      method: 'POST',
      url: `/api/calltree/events/${eventId}/answers`,
      headers: c2,
      payload: { id: randomUUID(), optionId: 'safe' },
    });
    expect(answered.statusCode).toBe(200);
    let at = startedAt + 14 * MINUTE;
    const first = scheduler(() => new Date(at));
    expect(await first.tick()).toBe(0);

    at = startedAt + 15 * MINUTE + 1000;
    // Everyone silent with a manager: a1, a2, b1, b2, b3, c1, c3 (not the ceo at the top, not c2 who answered).
    expect(await first.tick()).toBe(7);
    expect(await first.tick()).toBe(0);
    const level1 = await escalations(eventId);
    expect(level1.find((e) => e.user_id === org.c1.id)).toEqual({
      user_id: org.c1.id,
      notified_user_id: org.b1.id,
      level: 1,
    });
    expect(level1.some((e) => e.user_id === org.c2.id || e.user_id === org.ceo.id)).toBe(false);
    const note = await server.ctx.db.kysely
      .selectFrom('notifications')
      .selectAll()
      .where('user_id', '=', org.b1.id)
      .where('kind', '=', 'calltree.escalation')
      .execute();
    expect(note).toHaveLength(1);
    expect(note[0]!.title).toBe(`No answer from ${org.c1.display_name}`);
    const roomEvents = await server.ctx.db.kysely
      .selectFrom('events')
      .select('type')
      .where('room', '=', `user:${org.b1.id}`)
      .execute();
    expect(roomEvents.map((e) => e.type).filter((t) => t === 'notification.created')).toHaveLength(2);
    await first.stop();

    // A restarted instance picks up from the due times in the database: level 2 is one delay later.
    at = startedAt + 29 * MINUTE;
    const restarted = scheduler(() => new Date(at));
    expect(await restarted.tick()).toBe(0);
    const c1 = await headersFor(server, org.c1);
    await server.request({
      method: 'POST',
      url: `/api/calltree/events/${eventId}/answers`,
      headers: c1,
      payload: { id: randomUUID(), optionId: 'safe' },
    });
    at = startedAt + 30 * MINUTE + 2000;
    // Level 2 for those with a manager two up and still silent: b1, b2, b3 (→ ceo) and c3 (→ a2); c1 answered.
    expect(await restarted.tick()).toBe(4);
    const level2 = (await escalations(eventId)).filter((e) => e.level === 2);
    expect(level2.find((e) => e.user_id === org.c3.id)?.notified_user_id).toBe(org.a2.id);
    expect(level2.some((e) => e.user_id === org.c1.id)).toBe(false);
    at = startedAt + 46 * MINUTE;
    // Level 3: only c3 has a third manager up (ceo).
    expect(await restarted.tick()).toBe(1);
    at = startedAt + 120 * MINUTE;
    expect(await restarted.tick()).toBe(0);
    await restarted.stop();
    const people = await server.request({
      method: 'GET',
      url: `/api/calltree/events/${eventId}/people/${org.c3.id}`,
      headers: admin.headers,
    });
    expect(
      people.json().data.escalations.map((e: { level: number; notifiedUserId: string }) => e.notifiedUserId),
    ).toEqual([org.b3.id, org.a2.id, org.ceo.id]);
    const summary = await server.request({
      method: 'GET',
      url: `/api/calltree/events/${eventId}/summary`,
      headers: admin.headers,
    });
    expect(summary.json().data.escalations).toBe(12);
  });

  it('does not escalate a closed event', async () => {
    const { eventId, startedAt } = await runningEvent();
    await server.request({
      method: 'POST',
      url: `/api/calltree/events/${eventId}/close`,
      headers: admin.headers,
    });
    const s = scheduler(() => new Date(startedAt + 60 * MINUTE));
    expect(await s.tick()).toBe(0);
    await s.stop();
    expect(await escalations(eventId)).toEqual([]);
  });

  it('runs on one instance at a time: the lease holder works, the other waits until it is released', async () => {
    const { eventId, startedAt } = await runningEvent();
    let at = startedAt;
    const a = scheduler(() => new Date(at), 'instance-a');
    const b = scheduler(() => new Date(at), 'instance-b');
    expect(await a.tick()).toBe(0);
    at = startedAt + 16 * MINUTE;
    // a's lease has expired by this clock, so whoever asks first holds it; b asks first here.
    expect(await b.tick()).toBe(8);
    at += 1000;
    expect(await a.tick()).toBe(0);
    await b.stop();
    at = startedAt + 32 * MINUTE;
    expect(await a.tick()).toBeGreaterThan(0);
    await a.stop();
    expect((await escalations(eventId)).filter((e) => e.level === 1)).toHaveLength(8);
  });

  if (kind === 'postgres') {
    it('escalates exactly once with two server instances running concurrently on PostgreSQL', async () => {
      const { eventId, startedAt } = await runningEvent();
      const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(
        server.ctx.db.kysely,
      );
      // A second instance: its own connection pool to the same database and schema.
      const other = openDatabase({
        databaseUrl: TEST_DATABASE_URL,
        dataDir: ':memory:',
        pgSchema: rows[0]!.schema,
        poolSize: 4,
      });
      try {
        let at = startedAt;
        const clock = () => new Date(at);
        const a = new EscalationScheduler({
          db: server.ctx.db.kysely,
          bus: server.ctx.bus,
          now: clock,
          holder: 'pg-a',
        });
        const b = new EscalationScheduler({
          db: other.kysely,
          bus: server.ctx.bus,
          now: clock,
          holder: 'pg-b',
        });
        for (const minutes of [16, 16, 32, 32, 48, 48, 64]) {
          at = startedAt + minutes * MINUTE;
          await Promise.all([a.tick(), b.tick(), a.tick(), b.tick()]);
        }
        await Promise.all([a.stop(), b.stop()]);
        const all = await escalations(eventId);
        const keys = all.map((e) => `${e.user_id}:${e.level}`);
        expect(new Set(keys).size).toBe(keys.length);
        // 8 people with a manager; levels: a1, a2 → 1; b* → 2; c* → 3: 2 + 3*2 + 3*3 = 17.
        expect(all).toHaveLength(17);

        // Even without the lease, the instances' conditional updates never escalate anyone twice.
        const second = await runningEvent();
        for (const minutes of [16, 32, 48]) {
          const when = new Date(second.startedAt + minutes * MINUTE);
          await Promise.all([
            escalateDue(server.ctx.db.kysely, when),
            escalateDue(other.kysely, when),
            escalateDue(server.ctx.db.kysely, when),
            escalateDue(other.kysely, when),
          ]);
        }
        const secondKeys = (await escalations(second.eventId)).map((e) => `${e.user_id}:${e.level}`);
        expect(secondKeys).toHaveLength(17);
        expect(new Set(secondKeys).size).toBe(17);
        const notes = await server.ctx.db.kysely
          .selectFrom('notifications')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('kind', '=', 'calltree.escalation')
          .where((eb) =>
            eb.or([eb('data', 'like', `%${eventId}%`), eb('data', 'like', `%${second.eventId}%`)]),
          )
          .executeTakeFirstOrThrow();
        expect(Number(notes.n)).toBe(34);
      } finally {
        await other.close();
      }
    });
  }
});
