import { type Kysely, sql } from 'kysely';
import { isPostgres, timestampType } from '../migration-helpers.ts';

/**
 * The domain event log: every change is recorded here in the same transaction as the change, with a
 * sequence number that only grows, and the room it belongs to (`topic:<id>`, `user:<id>`, ...).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('events')
    .addColumn('seq', isPostgres(db) ? 'bigserial' : 'integer', (c) =>
      isPostgres(db) ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('room', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('created_at', timestampType(db), (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP`))
    .execute();
  await db.schema.createIndex('events_room_seq_index').on('events').columns(['room', 'seq']).execute();
  await db.schema.createIndex('events_created_at_index').on('events').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('events').execute();
}
