import type { Kysely } from 'kysely';
import { isPostgres, timestampType } from '../migration-helpers.ts';

/**
 * How far the event log has been pruned: one row holding the greatest sequence number deleted by
 * retention. A client resuming from before it has missed events and gets a resync.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('event_log_horizon')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('pruned_through_seq', isPostgres(db) ? 'bigint' : 'integer', (c) => c.notNull())
    .addColumn('pruned_at', timestampType(db), (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('event_log_horizon').execute();
}
