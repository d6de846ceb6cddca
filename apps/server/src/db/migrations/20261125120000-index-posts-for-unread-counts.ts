import { type Kysely, sql } from 'kysely';

/**
 * Unread counts from the topic's counter (presenters/topic.ts `selectTopics`): post_count minus the
 * read marker, minus the viewer's own live posts and the deleted posts after the marker. Each of the
 * two is counted through its own partial index, so the cost follows the viewer's posts and the
 * deleted posts, not every post of the topic.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('posts_topic_author_live_index')
    .on('posts')
    .columns(['topic_id', 'author_id', 'number'])
    .where(sql<boolean>`deleted_at is null`)
    .execute();
  await db.schema
    .createIndex('posts_topic_deleted_index')
    .on('posts')
    .columns(['topic_id', 'number'])
    .where(sql<boolean>`deleted_at is not null`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('posts_topic_deleted_index').execute();
  await db.schema.dropIndex('posts_topic_author_live_index').execute();
}
