import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import { type NewDomainEvent, recordEvents } from '../events/eventLog.ts';

/**
 * Largest number of bound values in one statement. SQLite allows 32,766 and PostgreSQL 65,535; staying
 * well below keeps statements quick to plan on both.
 */
const MAX_VALUES_PER_STATEMENT = 16_000;

/**
 * Inserts many rows as a few multi-row INSERTs (a 10,000-person snapshot is ~20 statements, not
 * 10,000), sized to stay under both engines' limits on bound values.
 */
export async function insertInChunks<T extends keyof Database & string>(
  trx: Kysely<Database>,
  table: T,
  rows: Insertable<Database[T]>[],
): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0] as object).length || 1;
  const size = Math.max(1, Math.floor(MAX_VALUES_PER_STATEMENT / columns));
  for (let i = 0; i < rows.length; i += size) {
    // Kysely's generic insert over a table name union cannot be typed tighter than this.
    await trx
      .insertInto(table)
      .values(rows.slice(i, i + size) as never)
      .execute();
  }
}

/** Records many domain events in chunks, in the caller's transaction. */
export async function recordEventsInChunks(trx: Kysely<Database>, events: NewDomainEvent[]): Promise<void> {
  const size = Math.floor(MAX_VALUES_PER_STATEMENT / 5);
  for (let i = 0; i < events.length; i += size) {
    await recordEvents(trx, events.slice(i, i + size));
  }
}
