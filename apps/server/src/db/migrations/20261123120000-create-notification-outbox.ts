import { type Kysely, sql } from 'kysely';
import { oneOf, timestampType } from '../migration-helpers.ts';

/**
 * The notification engine: what each notification is about (topic, post, comment, actor, urgency),
 * the outbox of deliveries to push, e-mail and Teams (one row per notification and channel, with
 * retries, a lease and a dead-letter state), people's settings, their browsers' push subscriptions
 * and how much of each topic reaches them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const ts = timestampType(db);
  for (const column of ['topic_id', 'post_id', 'comment_id', 'actor_id']) {
    await db.schema.alterTable('notifications').addColumn(column, 'text').execute();
  }
  // When the worker turned the notification into deliveries (null: not yet; the outbox's queue).
  await db.schema.alterTable('notifications').addColumn('dispatched_at', ts).execute();
  await db
    .updateTable('notifications' as never)
    .set({ dispatched_at: sql`created_at` } as never)
    .execute();
  await db.schema
    .createIndex('notifications_dispatch_index')
    .on('notifications')
    .columns(['dispatched_at', 'created_at'])
    .execute();
  await db.schema
    .alterTable('notifications')
    .addColumn('urgent', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('notifications_post_index').on('notifications').column('post_id').execute();
  await db.schema
    .createIndex('notifications_unread_index')
    .on('notifications')
    .columns(['user_id', 'read_at'])
    .execute();

  await db.schema
    .createTable('notification_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('notification_id', 'text', (c) =>
      c.notNull().references('notifications.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('channel', 'text', (c) => c.notNull().check(oneOf('channel', ['push', 'email', 'teams'])))
    .addColumn('status', 'text', (c) =>
      c.notNull().check(oneOf('status', ['pending', 'sent', 'skipped', 'dead'])),
    )
    .addColumn('urgent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', ts, (c) => c.notNull())
    .addColumn('locked_until', ts)
    .addColumn('locked_by', 'text')
    .addColumn('last_error', 'text')
    .addColumn('sent_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addUniqueConstraint('notification_deliveries_unique', ['notification_id', 'channel'])
    .execute();
  await db.schema
    .createIndex('notification_deliveries_due_index')
    .on('notification_deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();

  await db.schema
    .createTable('notification_settings')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id'))
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('push_subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('endpoint', 'text', (c) => c.notNull().unique())
    .addColumn('p256dh', 'text', (c) => c.notNull())
    .addColumn('auth', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('last_success_at', ts)
    .execute();
  await db.schema
    .createIndex('push_subscriptions_user_index')
    .on('push_subscriptions')
    .column('user_id')
    .execute();

  await db.schema
    .createTable('topic_notification_levels')
    .addColumn('topic_id', 'text', (c) => c.notNull().references('topics.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('level', 'text', (c) => c.notNull().check(oneOf('level', ['all', 'mentions', 'muted'])))
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('topic_notification_levels_pk', ['topic_id', 'user_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'topic_notification_levels',
    'push_subscriptions',
    'notification_settings',
    'notification_deliveries',
  ]) {
    await db.schema.dropTable(table).execute();
  }
  await db.schema.dropIndex('notifications_unread_index').execute();
  await db.schema.dropIndex('notifications_dispatch_index').execute();
  await db.schema.dropIndex('notifications_post_index').execute();
  for (const column of ['dispatched_at', 'urgent', 'actor_id', 'comment_id', 'post_id', 'topic_id']) {
    await db.schema.alterTable('notifications').dropColumn(column).execute();
  }
}
