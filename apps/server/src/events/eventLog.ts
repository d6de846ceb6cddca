import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../db/engine.ts';
import type { Database } from '../db/index.ts';
import { reusable } from '../db/reusable.ts';
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

/**
 * Records domain events in the caller's transaction, so that an event exists if and only if its
 * change was committed. Their sequence numbers become visible in commit order: a reader that has
 * seen seq N never later finds an N-1 that committed after it looked. SQLite has one writer at a
 * time and numbers them here; PostgreSQL numbers them inside COMMIT, under the event log's lock
 * (migration 20261128090000-sequence-events-at-commit), so they are written here under draft
 * numbers that no reader ever sees, and a writer holds no lock while it waits for Node.
 */
export async function recordEvents(trx: Kysely<Database>, events: NewDomainEvent[]): Promise<void> {
  if (events.length === 0) return;
  await insertEvents(
    trx,
    events.map((e) => e.room),
    events.map((e) => e.type),
    events.map((e) => JSON.stringify(e.payload)),
    events.map((e) => e.actorId ?? null),
    now(),
  );
}

const insertEvents = reusable(
  (
    trx: Kysely<Database>,
    rooms: string[],
    types: string[],
    payloads: string[],
    actorIds: (string | null)[],
    createdAt: string,
  ) => {
    const postgres = isPostgres(trx);
    return trx.insertInto('events').values(
      rooms.map((room, i) => ({
        ...(postgres ? { seq: sql<number>`-nextval('events_draft_seq')` } : {}),
        room,
        type: types[i]!,
        payload: payloads[i]!,
        actor_id: actorIds[i] ?? null,
        created_at: createdAt,
      })),
    );
  },
);

/** Records one domain event in the caller's transaction. */
export function recordEvent(trx: Kysely<Database>, event: NewDomainEvent): Promise<void> {
  return recordEvents(trx, [event]);
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
