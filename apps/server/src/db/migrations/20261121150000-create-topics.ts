import type { Kysely } from 'kysely';
import { oneOf, timestampType } from '../migration-helpers.ts';

/**
 * Topics and everything in them: members, followers, read state, posts, comments, reactions,
 * mentions, bells and attachments. Client-made ids have unique keys per author, so a retried create
 * finds the first one (idempotency lives in the database, not in a cache).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const ts = timestampType(db);
  await db.schema
    .createTable('topics')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text')
    .addColumn('creator_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('visibility', 'text', (c) =>
      c.notNull().check(oneOf('visibility', ['organisation', 'members'])),
    )
    .addColumn('cover_color', 'text')
    .addColumn('cover_emoji', 'text')
    .addColumn('archived_at', ts)
    .addColumn('post_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('member_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_activity_at', ts, (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addUniqueConstraint('topics_creator_client_unique', ['creator_id', 'client_id'])
    .execute();
  await db.schema
    .createIndex('topics_activity_index')
    .on('topics')
    .columns(['last_activity_at', 'id'])
    .execute();

  await db.schema
    .createTable('topic_members')
    .addColumn('topic_id', 'text', (c) => c.notNull().references('topics.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('role', 'text', (c) => c.notNull().check(oneOf('role', ['owner', 'member'])))
    .addColumn('added_by', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('topic_members_pk', ['topic_id', 'user_id'])
    .execute();
  await db.schema.createIndex('topic_members_user_index').on('topic_members').column('user_id').execute();

  await db.schema
    .createTable('topic_follows')
    .addColumn('topic_id', 'text', (c) => c.notNull().references('topics.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('topic_follows_pk', ['topic_id', 'user_id'])
    .execute();
  await db.schema.createIndex('topic_follows_user_index').on('topic_follows').column('user_id').execute();

  await db.schema
    .createTable('read_states')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('topic_id', 'text', (c) => c.notNull().references('topics.id').onDelete('cascade'))
    .addColumn('last_read_number', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('read_states_pk', ['user_id', 'topic_id'])
    .execute();

  await db.schema
    .createTable('posts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('topic_id', 'text', (c) => c.notNull().references('topics.id').onDelete('cascade'))
    .addColumn('author_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('comment_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pinned_at', ts)
    .addColumn('pinned_by', 'text')
    .addColumn('edited_at', ts)
    .addColumn('deleted_at', ts)
    .addColumn('deleted_by', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addUniqueConstraint('posts_author_client_unique', ['author_id', 'client_id'])
    .addUniqueConstraint('posts_topic_number_unique', ['topic_id', 'number'])
    .execute();
  await db.schema
    .createIndex('posts_topic_pinned_index')
    .on('posts')
    .columns(['topic_id', 'pinned_at'])
    .execute();

  await db.schema
    .createTable('comments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('post_id', 'text', (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('topic_id', 'text', (c) => c.notNull())
    .addColumn('author_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('edited_at', ts)
    .addColumn('deleted_at', ts)
    .addColumn('deleted_by', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addUniqueConstraint('comments_author_client_unique', ['author_id', 'client_id'])
    .execute();
  await db.schema.createIndex('comments_post_index').on('comments').columns(['post_id', 'id']).execute();

  await db.schema
    .createTable('reactions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('topic_id', 'text', (c) => c.notNull())
    .addColumn('post_id', 'text', (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('comment_id', 'text', (c) => c.references('comments.id').onDelete('cascade'))
    // The post or the comment: one column, so that the unique key below has no NULL in it.
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('emoji', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addUniqueConstraint('reactions_user_client_unique', ['user_id', 'client_id'])
    .addUniqueConstraint('reactions_target_user_emoji_unique', ['target_id', 'user_id', 'emoji'])
    .execute();
  await db.schema.createIndex('reactions_post_index').on('reactions').column('post_id').execute();

  await db.schema
    .createTable('mentions')
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('post_id', 'text', (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addPrimaryKeyConstraint('mentions_pk', ['target_id', 'user_id'])
    .execute();
  await db.schema.createIndex('mentions_post_index').on('mentions').column('post_id').execute();

  await db.schema
    .createTable('post_bells')
    .addColumn('post_id', 'text', (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('ringing', 'integer', (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('post_bells_pk', ['post_id', 'user_id'])
    .execute();

  await db.schema
    .createTable('attachments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('topic_id', 'text', (c) => c.notNull().references('topics.id').onDelete('cascade'))
    // Null until the uploader's post takes it in.
    .addColumn('post_id', 'text', (c) => c.references('posts.id').onDelete('cascade'))
    .addColumn('uploader_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('storage_key', 'text', (c) => c.notNull().unique())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(oneOf('kind', ['image', 'file'])))
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('attachments_post_index').on('attachments').column('post_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'attachments',
    'post_bells',
    'mentions',
    'reactions',
    'comments',
    'posts',
    'read_states',
    'topic_follows',
    'topic_members',
    'topics',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
