import type { Kysely } from 'kysely';
import { oneOf, timestampType } from '../migration-helpers.ts';

/**
 * Versioned terms of use, who accepted which version, and on the person the newest version they
 * accepted: the terms gate compares that one number with the current version on every request,
 * instead of querying acceptances, which grow with history.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const ts = timestampType(db);
  await db.schema
    .createTable('terms_versions')
    .addColumn('version', 'integer', (c) => c.primaryKey())
    .addColumn('title_th', 'text', (c) => c.notNull())
    .addColumn('body_th', 'text', (c) => c.notNull())
    .addColumn('title_en', 'text', (c) => c.notNull())
    .addColumn('body_en', 'text', (c) => c.notNull())
    .addColumn('published_at', ts, (c) => c.notNull())
    // Null for the default version seeded on first start.
    .addColumn('published_by', 'text', (c) => c.references('users.id'))
    .execute();

  await db.schema
    .createTable('terms_acceptances')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull().references('terms_versions.version'))
    .addColumn('client_kind', 'text', (c) => c.notNull().check(oneOf('client_kind', ['web', 'teams'])))
    .addColumn('accepted_at', ts, (c) => c.notNull())
    .addUniqueConstraint('terms_acceptances_user_version_unique', ['user_id', 'version'])
    .execute();
  await db.schema
    .createIndex('terms_acceptances_version_index')
    .on('terms_acceptances')
    .column('version')
    .execute();

  await db.schema.alterTable('users').addColumn('terms_accepted_version', 'integer').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('terms_accepted_version').execute();
  await db.schema.dropTable('terms_acceptances').execute();
  await db.schema.dropTable('terms_versions').execute();
}
