import { type Kysely, sql } from 'kysely';

/**
 * Uploads not yet in a post, found quickly: by uploader (their quota, summed at every upload) and by
 * age (the clean-up of uploads never posted). Partial indexes: only unposted rows, a small set.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('attachments_unposted_uploader_index')
    .on('attachments')
    .column('uploader_id')
    .where(sql<boolean>`post_id is null`)
    .execute();
  await db.schema
    .createIndex('attachments_unposted_age_index')
    .on('attachments')
    .column('created_at')
    .where(sql<boolean>`post_id is null`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('attachments_unposted_age_index').execute();
  await db.schema.dropIndex('attachments_unposted_uploader_index').execute();
}
