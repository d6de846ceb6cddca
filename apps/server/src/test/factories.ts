import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { NewUserRow, UserRow } from '../db/schema.ts';
import { newId, now } from '../ids.ts';

let sequence = 0;

/** Inserts a person with sensible defaults; any field can be overridden. */
export async function buildUser(db: Kysely<Database>, overrides: Partial<NewUserRow> = {}): Promise<UserRow> {
  sequence += 1;
  const id = overrides.id ?? newId();
  const at = now();
  const row: NewUserRow = {
    id,
    issuer: 'https://directory.test',
    subject: `subject-${id}`,
    tenant_id: null,
    email: `person${sequence}-${id.slice(-6)}@btalk.test`,
    display_name: `Person ${sequence}`,
    department: 'Operations',
    job_title: 'Officer',
    manager_subject: null,
    locale: 'en',
    role: 'member',
    tokens_valid_after: null,
    created_at: at,
    updated_at: at,
    ...overrides,
  };
  return db.insertInto('users').values(row).returningAll().executeTakeFirstOrThrow();
}
