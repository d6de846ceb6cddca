import { type Kysely, sql } from 'kysely';
import { timestampType } from '../migration-helpers.ts';

/**
 * Announcements (issue 17): `announcements`, one row per post marked important (its settings, when the
 * reminders went, and the audience's counters, kept in the transactions that change them so a topic
 * page reads them with its posts), and `announcement_recipients`, the audience: one row per person
 * asked, with when the post was on their screen and when they acknowledged. `changes` grows with every
 * change of the counters and `emitted_changes` is what the last `announcement.progress` event said, so
 * the progress emitter finds the posts whose counts moved. Both go with their post.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const ts = timestampType(db);
  await db.schema
    .createTable('announcements')
    .addColumn('post_id', 'text', (c) => c.primaryKey().references('posts.id').onDelete('cascade'))
    .addColumn('topic_id', 'text', (c) => c.notNull().references('topics.id').onDelete('cascade'))
    .addColumn('author_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('marked_at', ts, (c) => c.notNull())
    .addColumn('urgent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('due_at', ts)
    .addColumn('remind_after_minutes', 'integer')
    .addColumn('remind_at', ts)
    .addColumn('auto_reminded_at', ts)
    .addColumn('reminded_at', ts)
    .addColumn('audience', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('seen_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('acknowledged_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('changes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('emitted_changes', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // The reminder job: requests whose automatic reminder is due and not sent.
  await db.schema
    .createIndex('announcements_remind_due')
    .on('announcements')
    .column('remind_at')
    .where(sql<boolean>`auto_reminded_at is null`)
    .execute();
  // The progress emitter: requests whose counts moved since their last `announcement.progress`.
  await db.schema
    .createIndex('announcements_progress')
    .on('announcements')
    .column('post_id')
    .where(sql<boolean>`changes > emitted_changes`)
    .execute();
  await db.schema
    .createIndex('announcements_topic')
    .on('announcements')
    .columns(['topic_id', 'marked_at'])
    .execute();
  await db.schema
    .createTable('announcement_recipients')
    .addColumn('post_id', 'text', (c) => c.notNull().references('announcements.post_id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('added_at', ts, (c) => c.notNull())
    .addColumn('seen_at', ts)
    .addColumn('acknowledged_at', ts)
    .addPrimaryKeyConstraint('announcement_recipients_pk', ['post_id', 'user_id'])
    .execute();
  // The caller's pending list: their rows not acknowledged.
  await db.schema
    .createIndex('announcement_recipients_pending')
    .on('announcement_recipients')
    .columns(['user_id', 'post_id'])
    .where(sql<boolean>`acknowledged_at is null`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('announcement_recipients').execute();
  await db.schema.dropTable('announcements').execute();
}
