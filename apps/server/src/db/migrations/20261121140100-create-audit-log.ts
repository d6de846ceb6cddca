import type { Kysely } from 'kysely';
import { oneOf, timestampType } from '../migration-helpers.ts';

/**
 * The audit log: who did what to which thing, when, and from which client (terms accepted or
 * published, call-tree edits, answers given on someone's behalf). Only ever appended to.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // No foreign key: an audit entry outlives anything it names.
    .addColumn('actor_id', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('details', 'text', (c) => c.notNull())
    .addColumn('client_kind', 'text', (c) => c.check(oneOf('client_kind', ['web', 'teams'])))
    .addColumn('user_agent', 'text')
    .addColumn('created_at', timestampType(db), (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('audit_log_target_index')
    .on('audit_log')
    .columns(['target', 'created_at'])
    .execute();
  await db.schema
    .createIndex('audit_log_actor_index')
    .on('audit_log')
    .columns(['actor_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_log').execute();
}
