import type { Kysely } from 'kysely';

/**
 * A person's given name and surname as the directory's Graph `user` has them (`givenName`,
 * `surname`). The display name follows the person's language (Thai script for Thai speakers in the
 * development directory); the name parts are the Latin-script name, so the profile card shows both.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('given_name', 'text').execute();
  await db.schema.alterTable('users').addColumn('surname', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('surname').execute();
  await db.schema.alterTable('users').dropColumn('given_name').execute();
}
