import type { Kysely } from 'kysely';
import { oneOf, timestampType } from '../migration-helpers.ts';

/**
 * The call tree: trees of people, the per-tree "event manager" role, tree history, events with the
 * snapshot of who they target, every answer, escalations, reminders, in-app notifications, and the
 * lease that lets exactly one server instance run the escalation scheduler. Also the person's phone
 * number (the directory fills it; the roll-up shows it).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const ts = timestampType(db);
  await db.schema.alterTable('users').addColumn('phone', 'text').execute();

  await db.schema
    .createTable('call_trees')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull().check(oneOf('source', ['directory', 'csv', 'empty'])))
    .addColumn('root_user_id', 'text', (c) => c.references('users.id'))
    .addColumn('created_by', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('call_tree_members')
    .addColumn('tree_id', 'text', (c) => c.notNull().references('call_trees.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('manager_id', 'text', (c) => c.references('users.id'))
    .addColumn('added_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('call_tree_members_pk', ['tree_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('call_tree_members_manager_index')
    .on('call_tree_members')
    .columns(['tree_id', 'manager_id'])
    .execute();
  await db.schema
    .createIndex('call_tree_members_user_index')
    .on('call_tree_members')
    .column('user_id')
    .execute();

  await db.schema
    .createTable('call_tree_managers')
    .addColumn('tree_id', 'text', (c) => c.notNull().references('call_trees.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('granted_by', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('call_tree_managers_pk', ['tree_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('call_tree_managers_user_index')
    .on('call_tree_managers')
    .column('user_id')
    .execute();

  await db.schema
    .createTable('call_tree_changes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tree_id', 'text', (c) => c.notNull().references('call_trees.id').onDelete('cascade'))
    .addColumn('actor_id', 'text', (c) => c.references('users.id'))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('detail', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('call_tree_changes_tree_index')
    .on('call_tree_changes')
    .columns(['tree_id', 'id'])
    .execute();

  await db.schema
    .createTable('call_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tree_id', 'text', (c) => c.notNull().references('call_trees.id'))
    .addColumn('branch_root_id', 'text', (c) => c.references('users.id'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(oneOf('kind', ['drill', 'real'])))
    .addColumn('options', 'text', (c) => c.notNull())
    .addColumn('escalation_delay_seconds', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(oneOf('status', ['running', 'closed'])))
    .addColumn('target_count', 'integer', (c) => c.notNull())
    .addColumn('started_by', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('started_at', ts, (c) => c.notNull())
    .addColumn('closed_by', 'text', (c) => c.references('users.id'))
    .addColumn('closed_at', ts)
    .execute();
  await db.schema
    .createIndex('call_events_tree_index')
    .on('call_events')
    .columns(['tree_id', 'id'])
    .execute();
  await db.schema
    .createIndex('call_events_status_index')
    .on('call_events')
    .columns(['status', 'id'])
    .execute();

  // The snapshot: one row per targeted person, fixed at start, with the current answer and the
  // escalation state (due time and level) that the scheduler reads after a restart.
  await db.schema
    .createTable('call_event_targets')
    .addColumn('event_id', 'text', (c) => c.notNull().references('call_events.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('manager_id', 'text')
    .addColumn('depth', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('no_answer')
        .check(oneOf('status', ['no_answer', 'safe', 'need_help'])),
    )
    .addColumn('option_id', 'text')
    .addColumn('answer_id', 'text')
    .addColumn('answered_at', ts)
    .addColumn('first_answered_at', ts)
    .addColumn('on_behalf', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('escalation_level', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_escalation_at', ts)
    .addPrimaryKeyConstraint('call_event_targets_pk', ['event_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('call_event_targets_user_index')
    .on('call_event_targets')
    .column('user_id')
    .execute();
  await db.schema
    .createIndex('call_event_targets_due_index')
    .on('call_event_targets')
    .column('next_escalation_at')
    .execute();

  await db.schema
    .createTable('call_answers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull().references('call_events.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('answered_by', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('on_behalf', 'integer', (c) => c.notNull())
    .addColumn('reached_via', 'text')
    .addColumn('option_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(oneOf('status', ['safe', 'need_help'])))
    .addColumn('note', 'text')
    .addColumn('location', 'text')
    .addColumn('answered_at', ts, (c) => c.notNull())
    .addColumn('recorded_at', ts, (c) => c.notNull())
    .addUniqueConstraint('call_answers_client_unique', ['event_id', 'client_id'])
    .execute();
  await db.schema
    .createIndex('call_answers_person_index')
    .on('call_answers')
    .columns(['event_id', 'user_id'])
    .execute();

  await db.schema
    .createTable('call_escalations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull().references('call_events.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('notified_user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('level', 'integer', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    // The last line of defence against escalating twice: one row per person and level.
    .addUniqueConstraint('call_escalations_once', ['event_id', 'user_id', 'level'])
    .execute();

  await db.schema
    .createTable('call_reminders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull().references('call_events.id').onDelete('cascade'))
    .addColumn('sent_by', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('recipients', 'integer', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('notifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('read_at', ts)
    .execute();
  await db.schema
    .createIndex('notifications_user_index')
    .on('notifications')
    .columns(['user_id', 'id'])
    .execute();

  await db.schema
    .createTable('scheduler_leases')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'scheduler_leases',
    'notifications',
    'call_reminders',
    'call_escalations',
    'call_answers',
    'call_event_targets',
    'call_events',
    'call_tree_changes',
    'call_tree_managers',
    'call_tree_members',
    'call_trees',
  ]) {
    await db.schema.dropTable(table).execute();
  }
  await db.schema.alterTable('users').dropColumn('phone').execute();
}
