import type { Kysely } from 'kysely';

/**
 * Direct conversations (issue 15): a topic of 2 to 8 people that keeps its people. `direct_key`
 * holds the participants' user ids, sorted and joined with commas; null for every other topic. Its
 * unique index makes the same people always get the same conversation back, even when two requests
 * race (the second one's insert fails, and its retry finds the first one's row). The topic's stored
 * visibility stays `members`, so every rule that knows nothing of conversations keeps them to their
 * participants; the API shows them as `direct`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('topics').addColumn('direct_key', 'text').execute();
  await db.schema
    .createIndex('topics_direct_key_unique')
    .on('topics')
    .column('direct_key')
    .unique()
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('topics_direct_key_unique').execute();
  await db.schema.alterTable('topics').dropColumn('direct_key').execute();
}
