import type { Kysely } from 'kysely';
import { timestampType } from '../migration-helpers.ts';

/**
 * What the built-in development directory (oidc-provider) stores: its sessions, interactions,
 * codes, grants and tokens, so that a restart or a second instance keeps people signed in to it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const ts = timestampType(db);
  await db.schema
    .createTable('directory_records')
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('grant_id', 'text')
    .addColumn('uid', 'text')
    .addColumn('user_code', 'text')
    .addColumn('expires_at', ts)
    .addPrimaryKeyConstraint('directory_records_pkey', ['model', 'id'])
    .execute();
  await db.schema
    .createIndex('directory_records_grant_id_index')
    .on('directory_records')
    .column('grant_id')
    .execute();
  await db.schema.createIndex('directory_records_uid_index').on('directory_records').column('uid').execute();
  await db.schema
    .createIndex('directory_records_expires_at_index')
    .on('directory_records')
    .column('expires_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('directory_records').execute();
}
