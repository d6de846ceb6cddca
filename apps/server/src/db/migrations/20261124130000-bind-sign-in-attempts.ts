import type { Kysely } from 'kysely';

/**
 * Binds each sign-in attempt to the browser that started it (login CSRF): the SHA-256 of the
 * browser's sign-in cookie, which `POST /api/auth/code` must present. Attempts started before this
 * migration have none and are refused; they last 10 minutes, so people only start again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sign_in_attempts').addColumn('browser_hash', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sign_in_attempts').dropColumn('browser_hash').execute();
}
