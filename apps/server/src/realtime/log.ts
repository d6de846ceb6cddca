import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import { reusable } from '../db/reusable.ts';
import { type DomainEventRecord, toRecord } from '../events/eventLog.ts';
import { now } from '../ids.ts';

/**
 * Events of every room after `afterSeq` (and up to `uptoSeq` when given: a SQLite file's last
 * durable event), oldest first: what one instance fans out per wake-up.
 */
export async function eventsAfter(
  db: Kysely<Database>,
  afterSeq: number,
  limit: number,
  uptoSeq?: number,
): Promise<DomainEventRecord[]> {
  return (await allEventsAfter(db, afterSeq, uptoSeq, limit)).map(toRecord);
}

const allEventsAfter = reusable(
  (db: Kysely<Database>, afterSeq: number, uptoSeq: number | undefined, limit: number) => {
    let query = db.selectFrom('events').selectAll().where('seq', '>', afterSeq);
    if (uptoSeq !== undefined) query = query.where('seq', '<=', uptoSeq);
    return query.orderBy('seq').limit(limit);
  },
);

/** Events in `rooms` with `afterSeq < seq <= uptoSeq`, oldest first, at most `limit`. */
export async function eventsBetween(
  db: Kysely<Database>,
  rooms: string[],
  afterSeq: number,
  uptoSeq: number,
  limit: number,
): Promise<DomainEventRecord[]> {
  if (rooms.length === 0 || uptoSeq <= afterSeq) return [];
  const rows = await db
    .selectFrom('events')
    .selectAll()
    .where('seq', '>', afterSeq)
    .where('seq', '<=', uptoSeq)
    .where('room', 'in', rooms)
    .orderBy('seq')
    .limit(limit)
    .execute();
  return rows.map(toRecord);
}

/** How many events in `rooms` have `afterSeq < seq <= uptoSeq`, counting no further than `cap`. */
export async function countEventsBetween(
  db: Kysely<Database>,
  rooms: string[],
  afterSeq: number,
  uptoSeq: number,
  cap: number,
): Promise<number> {
  if (rooms.length === 0 || uptoSeq <= afterSeq) return 0;
  const rows = await db
    .selectFrom('events')
    .select('seq')
    .where('seq', '>', afterSeq)
    .where('seq', '<=', uptoSeq)
    .where('room', 'in', rooms)
    .limit(cap)
    .execute();
  return rows.length;
}

/** The greatest sequence number committed so far (0 when the log has never held an event). */
export async function headSeq(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('events')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .executeTakeFirst();
  const inLog = Number(row?.seq ?? 0);
  return Math.max(inLog, await prunedThrough(db));
}

/** The greatest sequence number retention has deleted (0 when nothing was pruned). */
export async function prunedThrough(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('event_log_horizon')
    .select('pruned_through_seq')
    .where('id', '=', 1)
    .executeTakeFirst();
  return Number(row?.pruned_through_seq ?? 0);
}

/**
 * Deletes events recorded before `retentionDays` ago and moves the horizon, in one transaction. The
 * log's `created_at` grows with `seq` (writers take the sequence and the time under one lock), so
 * everything up to the newest expired event goes. Returns how many events were deleted.
 */
export async function pruneEvents(
  db: Kysely<Database>,
  retentionDays: number,
  nowMs: number = Date.now(),
): Promise<number> {
  const cutoff = new Date(nowMs - retentionDays * 86_400_000).toISOString();
  return db.transaction().execute(async (trx) => {
    const newest = await trx
      .selectFrom('events')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .where('created_at', '<', cutoff)
      .executeTakeFirst();
    if (newest?.seq === null || newest?.seq === undefined) return 0;
    const through = Number(newest.seq);
    const deleted = await trx.deleteFrom('events').where('seq', '<=', through).executeTakeFirst();
    await trx
      .insertInto('event_log_horizon')
      .values({ id: 1, pruned_through_seq: through, pruned_at: now() })
      .onConflict((oc) =>
        oc
          .column('id')
          .doUpdateSet({ pruned_through_seq: through, pruned_at: now() })
          .where('event_log_horizon.pruned_through_seq', '<', through),
      )
      .execute();
    return Number(deleted.numDeletedRows);
  });
}
