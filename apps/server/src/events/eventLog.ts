import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../db/engine.ts';
import type { Database } from '../db/index.ts';
import { now } from '../ids.ts';

/** One domain event to record. */
export interface NewDomainEvent {
  /** `topic:<id>`, `user:<id>`, `callevent:<id>`: who may see the event. */
  room: string;
  /** The event's name, e.g. `post.created`. */
  type: string;
  /** Plain data; stored as JSON, sent to clients as an object. */
  payload: unknown;
  /** Who caused it, if a person did. */
  actorId?: string | null;
}

/** A recorded domain event. */
export interface DomainEventRecord {
  seq: number;
  room: string;
  type: string;
  payload: unknown;
  actorId: string | null;
  createdAt: string;
}

/** Arbitrary constant key of the PostgreSQL advisory lock that orders event writers. */
const EVENT_LOCK_KEY = 727_001;

/**
 * Records domain events in the caller's transaction, so that an event exists if and only if its
 * change was committed. On PostgreSQL, writers take a transaction-scoped advisory lock first, so
 * that sequence numbers become visible in commit order: a reader that has seen seq N never later
 * finds an N-1 that committed after it looked. (SQLite has one writer at a time already.)
 */
export async function recordEvents(
  trx: Kysely<Database>,
  events: NewDomainEvent[],
): Promise<DomainEventRecord[]> {
  if (events.length === 0) return [];
  if (isPostgres(trx)) {
    await sql`select pg_advisory_xact_lock(${EVENT_LOCK_KEY})`.execute(trx);
  }
  const createdAt = now();
  const rows = await trx
    .insertInto('events')
    .values(
      events.map((e) => ({
        room: e.room,
        type: e.type,
        payload: JSON.stringify(e.payload),
        actor_id: e.actorId ?? null,
        created_at: createdAt,
      })),
    )
    .returning(['seq', 'room', 'type', 'payload', 'actor_id', 'created_at'])
    .execute();
  return rows.map(toRecord);
}

/** Records one domain event in the caller's transaction. */
export async function recordEvent(trx: Kysely<Database>, event: NewDomainEvent): Promise<DomainEventRecord> {
  const [record] = await recordEvents(trx, [event]);
  return record!;
}

/** Events after `afterSeq` in the given rooms, oldest first, at most `limit`. */
export async function eventsSince(
  db: Kysely<Database>,
  rooms: string[],
  afterSeq: number,
  limit: number,
): Promise<DomainEventRecord[]> {
  if (rooms.length === 0) return [];
  const rows = await db
    .selectFrom('events')
    .selectAll()
    .where('seq', '>', afterSeq)
    .where('room', 'in', rooms)
    .orderBy('seq')
    .limit(limit)
    .execute();
  return rows.map(toRecord);
}

/** A row of the `events` table as a recorded domain event (payload parsed). */
export function toRecord(row: {
  seq: number;
  room: string;
  type: string;
  payload: string;
  actor_id: string | null;
  created_at: string;
}): DomainEventRecord {
  return {
    seq: Number(row.seq),
    room: row.room,
    type: row.type,
    payload: JSON.parse(row.payload),
    actorId: row.actor_id,
    createdAt: row.created_at,
  };
}
