import type { Kysely } from 'kysely';

/**
 * The bot's 1:1 conversation with each person who added BTalk in Microsoft Teams (SPEC's
 * `user_enable`: a row without `removed_at`). Kept from the install activity; proactive
 * notifications go to `service_url` + `conversation_id`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('teams_conversations')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('tenant_id', 'text')
    .addColumn('service_url', 'text', (c) => c.notNull())
    .addColumn('conversation_id', 'text', (c) => c.notNull())
    .addColumn('bot_id', 'text', (c) => c.notNull())
    .addColumn('installed_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('removed_at', 'text')
    .addColumn('removed_reason', 'text')
    .execute();
  await db.schema
    .createIndex('teams_conversations_conversation')
    .on('teams_conversations')
    .column('conversation_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('teams_conversations').execute();
}
