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
    const first = await t.db.kysely
      .transaction()
      .execute((trx) =>
        recordEvent(trx, { room: 'topic:a', type: 'test.one', payload: { n: 1 }, actorId: 'u1' }),
      );
    await t.db.kysely.transaction().execute((trx) =>
      recordEvents(trx, [
        { room: 'topic:b', type: 'test.two', payload: { n: 2 } },
        { room: 'topic:a', type: 'test.three', payload: { text: 'สวัสดี' } },
      ]),
    );
    const inA = await eventsSince(t.db.kysely, ['topic:a'], 0, 100);
    expect(inA.map((e) => e.type)).toEqual(['test.one', 'test.three']);
    expect(inA[0]).toMatchObject({ seq: first.seq, actorId: 'u1', payload: { n: 1 } });
    expect(inA[1]!.seq).toBeGreaterThan(first.seq);
    expect(inA[1]!.payload).toEqual({ text: 'สวัสดี' });
    expect(await eventsSince(t.db.kysely, ['topic:a', 'topic:b'], first.seq, 100)).toHaveLength(2);
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
    it('lets a writer draw its sequence number only after the one before it has committed', async () => {
      let commitFirst!: () => void;
      const firstMayCommit = new Promise<void>((resolve) => {
        commitFirst = resolve;
      });
      let firstRecorded!: () => void;
      const firstHasItsNumber = new Promise<void>((resolve) => {
        firstRecorded = resolve;
      });
      const first = t.db.kysely.transaction().execute(async (trx) => {
        const [event] = await recordEvents(trx, [
          { room: 'topic:order', type: 'test.first', payload: {} },
          { room: 'topic:order', type: 'test.first-b', payload: {} },
        ]);
        firstRecorded();
        await firstMayCommit;
        return event!.seq;
      });
      await firstHasItsNumber;
      let secondDone = false;
      const second = t.db.kysely
        .transaction()
        .execute((trx) => recordEvent(trx, { room: 'topic:order', type: 'test.second', payload: {} }))
        .then((event) => {
          secondDone = true;
          return event.seq;
        });
      // The second writer waits on the event log's lock while the first is open.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(secondDone).toBe(false);
      commitFirst();
      const [a, b] = await Promise.all([first, second]);
      expect(b).toBe(a + 2);
      const order = (await eventsSince(t.db.kysely, ['topic:order'], 0, 10)).map((e) => e.type);
      expect(order).toEqual(['test.first', 'test.first-b', 'test.second']);
    });
  }
});
