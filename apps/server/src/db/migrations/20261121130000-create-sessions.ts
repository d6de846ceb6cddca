import type { Kysely } from 'kysely';
import { oneOf, timestampType } from '../migration-helpers.ts';

/**
 * Sign-in attempts (state, nonce and PKCE verifier kept on the server, one use), sessions (one
 * refresh-token family each, with the directory's tokens that never leave the server) and the
 * refresh tokens of each session, stored hashed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const ts = timestampType(db);
  await db.schema
    .createTable('sign_in_attempts')
    .addColumn('state', 'text', (c) => c.primaryKey())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sign_in_attempts_expires_at_index')
    .on('sign_in_attempts')
    .column('expires_at')
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) =>
      c
        .notNull()
        .defaultTo('web')
        .check(oneOf('kind', ['web', 'team'])),
    )
    .addColumn('directory_access_token', 'text', (c) => c.notNull())
    .addColumn('directory_access_expires_at', ts, (c) => c.notNull())
    .addColumn('directory_refresh_token', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('refreshed_at', ts, (c) => c.notNull())
    .addColumn('revoked_at', ts)
    .addColumn('revoked_reason', 'text')
    .execute();
  await db.schema.createIndex('sessions_user_id_index').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('refresh_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .addColumn('rotated_at', ts)
    .addColumn('successor_id', 'text')
    .addColumn('successor_sealed', 'text')
    .execute();
  await db.schema
    .createIndex('refresh_tokens_session_id_index')
    .on('refresh_tokens')
    .column('session_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('refresh_tokens').execute();
  await db.schema.dropTable('sessions').execute();
  await db.schema.dropTable('sign_in_attempts').execute();
}
