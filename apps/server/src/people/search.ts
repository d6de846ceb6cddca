import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely';
import type { Database } from '../db/index.ts';
import type { UserRow } from '../db/schema.ts';
import { decodeCursor } from '../http/cursor.ts';

/** A search of people: words in name, e-mail or department, a cursor, a page size. */
export interface PeopleSearch {
  search?: string | undefined;
  cursor?: string | undefined;
  limit: number;
}

/**
 * People by name (then id) matching the search, one more than `limit` (for the next cursor, made
 * from `[display_name, id]`), restricted by `where` (a policy's rule of whom the caller may find).
 * The one people search: `GET /api/users` and the administrators' `GET /api/admin/people`.
 */
export async function searchPeople(
  db: Kysely<Database>,
  { search, cursor, limit }: PeopleSearch,
  where?: (eb: ExpressionBuilder<Database, 'users'>) => Expression<SqlBool>,
): Promise<UserRow[]> {
  const after = decodeCursor<[string, string]>(cursor, ['string', 'string']);
  let query = db.selectFrom('users').selectAll();
  if (where) query = query.where(where);
  if (search) {
    const pattern = `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const matches = (['display_name', 'email', 'department'] as const).map(
      (column) => sql<boolean>`lower(coalesce(${sql.ref(column)}, '')) like ${pattern} escape '\\'`,
    );
    query = query.where(sql<boolean>`(${sql.join(matches, sql` or `)})`);
  }
  if (after) {
    const [name, id] = after;
    query = query.where((eb) =>
      eb.or([eb('display_name', '>', name), eb.and([eb('display_name', '=', name), eb('id', '>', id)])]),
    );
  }
  return query
    .orderBy('display_name')
    .orderBy('id')
    .limit(limit + 1)
    .execute();
}
