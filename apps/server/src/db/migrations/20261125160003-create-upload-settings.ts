import type { Kysely } from 'kysely';

/**
 * The administrators' settings of uploads: one row (`id` 'uploads') once an administrator has set the
 * refused file types; without it, UPLOAD_REFUSED_EXTENSIONS (or its default) applies.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('upload_settings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // A JSON array of extensions, lower case without the dot.
    .addColumn('refused_extensions', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('upload_settings').execute();
}
