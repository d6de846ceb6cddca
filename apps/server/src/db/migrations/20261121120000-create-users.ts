import type { Kysely } from 'kysely';
import { oneOf, timestampType } from '../migration-helpers.ts';

/** People known to BTalk, keyed by the directory's issuer and subject. */
export async function up(db: Kysely<unknown>): Promise<void> {
  const ts = timestampType(db);
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('tenant_id', 'text')
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('department', 'text')
    .addColumn('job_title', 'text')
    .addColumn('manager_subject', 'text')
    .addColumn('locale', 'text', (c) =>
      c
        .notNull()
        .defaultTo('en')
        .check(oneOf('locale', ['th', 'en'])),
    )
    .addColumn('role', 'text', (c) =>
      c
        .notNull()
        .defaultTo('member')
        .check(oneOf('role', ['admin', 'member'])),
    )
    .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('tokens_valid_after', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addUniqueConstraint('users_issuer_subject_unique', ['issuer', 'subject'])
    .execute();
  await db.schema.createIndex('users_email_index').on('users').column('email').execute();
  await db.schema.createIndex('users_manager_subject_index').on('users').column('manager_subject').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('users').execute();
}
