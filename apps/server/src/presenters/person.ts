import type { Person } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { UserRow } from '../db/schema.ts';

/** A person as others see them in topics. */
export function presentPerson(row: Pick<UserRow, 'id' | 'display_name' | 'email' | 'department'>): Person {
  return { id: row.id, displayName: row.display_name, email: row.email, department: row.department };
}

/** Loads the people with these ids in one query, by id. */
export async function loadPeople(db: Kysely<Database>, ids: Iterable<string>): Promise<Map<string, Person>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'display_name', 'email', 'department'])
    .where('id', 'in', unique)
    .execute();
  return new Map(rows.map((r) => [r.id, presentPerson(r)]));
}

/** The person with this id from a map made by `loadPeople` (users are never deleted). */
export function personFrom(people: Map<string, Person>, id: string): Person {
  return people.get(id) ?? { id, displayName: 'Unknown person', email: '', department: null };
}
