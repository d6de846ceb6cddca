import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, openTestDatabase, type TestDatabase } from '../test/db.ts';
import { eventsSince, recordEvent, recordEvents } from './eventLog.ts';

describeEachDatabase('event log', (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase(kind);
  });
  afterAll(() => t.cleanup());

  it('records events with growing sequence numbers and reads them back per room', async () => {
    await t.db.kysely
      .transaction()
      .execute((trx) =>
        recordEvent(trx, { room: 'topic:a', type: 'test.one', payload: { n: 1 }, actorId: 'u1' }),
      );
    const [first] = await eventsSince(t.db.kysely, ['topic:a'], 0, 1);
    expect(first!.seq).toBeGreaterThan(0);
    await t.db.kysely.transaction().execute((trx) =>
      recordEvents(trx, [
        { room: 'topic:b', type: 'test.two', payload: { n: 2 } },
        { room: 'topic:a', type: 'test.three', payload: { text: 'สวัสดี' } },
      ]),
    );
    const inA = await eventsSince(t.db.kysely, ['topic:a'], 0, 100);
    expect(inA.map((e) => e.type)).toEqual(['test.one', 'test.three']);
    expect(inA[0]).toMatchObject({ seq: first!.seq, actorId: 'u1', payload: { n: 1 } });
    expect(inA[1]!.seq).toBeGreaterThan(first!.seq);
    expect(inA[1]!.payload).toEqual({ text: 'สวัสดี' });
    expect(await eventsSince(t.db.kysely, ['topic:a', 'topic:b'], first!.seq, 100)).toHaveLength(2);
    expect(await eventsSince(t.db.kysely, [], 0, 100)).toEqual([]);
  });

  it('records nothing when the transaction rolls back', async () => {
    const before = await eventsSince(t.db.kysely, ['topic:rollback'], 0, 100);
    await expect(
      t.db.kysely.transaction().execute(async (trx) => {
        await recordEvent(trx, { room: 'topic:rollback', type: 'test.lost', payload: {} });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await eventsSince(t.db.kysely, ['topic:rollback'], 0, 100)).toEqual(before);
  });

  it('keeps order under concurrent writers', async () => {
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.db.kysely
          .transaction()
          .execute((trx) => recordEvent(trx, { room: 'topic:c', type: 'test.n', payload: { i } })),
      ),
    );
    const events = await eventsSince(t.db.kysely, ['topic:c'], 0, 100);
    expect(events).toHaveLength(20);
    const seqs = events.map((e) => e.seq);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    expect(new Set(seqs).size).toBe(20);
  });

  if (kind === 'postgres') {
    it('numbers events in commit order, and a writer still open holds up no other writer', async () => {
      let commitFirst!: () => void;
      const firstMayCommit = new Promise<void>((resolve) => {
        commitFirst = resolve;
      });
      let firstRecorded!: () => void;
      const firstHasWritten = new Promise<void>((resolve) => {
        firstRecorded = resolve;
      });
      const first = t.db.kysely.transaction().execute(async (trx) => {
        await recordEvents(trx, [
          { room: 'topic:order', type: 'test.first', payload: {} },
          { room: 'topic:order', type: 'test.first-b', payload: {} },
        ]);
        firstRecorded();
        await firstMayCommit;
      });
      await firstHasWritten;
      // Written first but still open: the second writer commits meanwhile (it used to wait for it).
      await t.db.kysely
        .transaction()
        .execute((trx) => recordEvent(trx, { room: 'topic:order', type: 'test.second', payload: {} }));
      expect(await eventsSince(t.db.kysely, ['topic:order'], 0, 10)).toMatchObject([{ type: 'test.second' }]);
      commitFirst();
      await first;
      const events = await eventsSince(t.db.kysely, ['topic:order'], 0, 10);
      expect(events.map((e) => e.type)).toEqual(['test.second', 'test.first', 'test.first-b']);
      const [second, a, b] = events.map((e) => e.seq);
      expect([a! - second!, b! - a!]).toEqual([1, 1]);
      // The time is stamped with the number, so retention may cut the log by time (realtime/log.ts).
      expect([...events].sort((x, y) => x.createdAt.localeCompare(y.createdAt))).toEqual(events);
    });

    it('draws the numbers under the event log lock, inside COMMIT', async () => {
      const before = (await eventsSince(t.db.kysely, ['topic:locked'], 0, 10)).length;
      let release!: () => void;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => {
        locked = resolve;
      });
      // Another session holds the lock, as a writer in the middle of its commit would.
      const holder = t.db.kysely.connection().execute(async (conn) => {
        await sql`select pg_advisory_lock(727001)`.execute(conn);
        locked();
        await released;
        await sql`select pg_advisory_unlock(727001)`.execute(conn);
      });
      await isLocked;
      let written = false;
      let committed = false;
      const writer = t.db.kysely
        .transaction()
        .execute(async (trx) => {
          await recordEvent(trx, { room: 'topic:locked', type: 'test.waits', payload: {} });
          written = true;
        })
        .then(() => {
          committed = true;
        });
      await new Promise((resolve) => setTimeout(resolve, 300));
      // It wrote its event without the lock; its COMMIT waits for it, and nothing is visible yet.
      expect({ written, committed }).toEqual({ written: true, committed: false });
      expect(await eventsSince(t.db.kysely, ['topic:locked'], 0, 10)).toHaveLength(before);
      release();
      await Promise.all([holder, writer]);
      expect(await eventsSince(t.db.kysely, ['topic:locked'], 0, 10)).toHaveLength(before + 1);
    });
  }
});
