import type { Kysely } from 'kysely';
import { timestampType } from '../migration-helpers.ts';

/** Page views of the web app, for the organisation's own analytics (nothing goes to third parties). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('page_views')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('locale', 'text')
    .addColumn('created_at', timestampType(db), (c) => c.notNull())
    .execute();
  await db.schema.createIndex('page_views_created_at_index').on('page_views').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('page_views').execute();
}
