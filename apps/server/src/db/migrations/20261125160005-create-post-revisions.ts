import type { Kysely } from 'kysely';
import { timestampType } from '../migration-helpers.ts';

/**
 * A post's and a comment's edit history (`post_revisions`, `comment_revisions`): each edit keeps the text it replaced. `number` counts the post's edits from
 * 1; `body` is the text before that edit and `written_at` when that text was written (the post's
 * creation or the edit before: kept, so posts edited before this table have a true time too),
 * `edited_at` when the edit was made and `editor_id` who made it. A deleted post's history goes
 * with its text.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const ts = timestampType(db);
  await db.schema
    .createTable('post_revisions')
    .addColumn('post_id', 'text', (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('written_at', ts, (c) => c.notNull())
    .addColumn('edited_at', ts, (c) => c.notNull())
    .addColumn('editor_id', 'text', (c) => c.notNull().references('users.id'))
    .addPrimaryKeyConstraint('post_revisions_pk', ['post_id', 'number'])
    .execute();
  await db.schema
    .createTable('comment_revisions')
    .addColumn('comment_id', 'text', (c) => c.notNull().references('comments.id').onDelete('cascade'))
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('written_at', ts, (c) => c.notNull())
    .addColumn('edited_at', ts, (c) => c.notNull())
    .addColumn('editor_id', 'text', (c) => c.notNull().references('users.id'))
    .addPrimaryKeyConstraint('comment_revisions_pk', ['comment_id', 'number'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('comment_revisions').execute();
  await db.schema.dropTable('post_revisions').execute();
}
