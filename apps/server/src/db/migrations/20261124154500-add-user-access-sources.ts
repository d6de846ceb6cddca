import type { Kysely } from 'kysely';
import { oneOf } from '../migration-helpers.ts';

/**
 * Records who decided a person's role and who disabled them: `directory` (sign-in and directory
 * sync follow the directory) or `btalk` (an administrator's choice in the People screen, which sync
 * leaves alone). Until now roles only came from the directory, and only BTalk disabled people.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('role_source', 'text', (c) =>
      c
        .notNull()
        .defaultTo('directory')
        .check(oneOf('role_source', ['directory', 'btalk'])),
    )
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('disabled_source', 'text', (c) => c.check(oneOf('disabled_source', ['directory', 'btalk'])))
    .execute();
  await (db as Kysely<{ users: { disabled: number; disabled_source: string | null } }>)
    .updateTable('users')
    .set({ disabled_source: 'btalk' })
    .where('disabled', '=', 1)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('disabled_source').execute();
  await db.schema.alterTable('users').dropColumn('role_source').execute();
}
