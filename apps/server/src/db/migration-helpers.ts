import { type Kysely, sql } from 'kysely';
import { isPostgres } from './engine.ts';

export { isPostgres };

/** A timestamp column: `timestamptz` on PostgreSQL, ISO-8601 `text` on SQLite. */
export function timestampType(db: Kysely<unknown>) {
  return isPostgres(db) ? sql`timestamptz` : sql`text`;
}

/** A CHECK that a text column holds one of the given values, written the same on both engines. */
export function oneOf(column: string, values: readonly string[]) {
  return sql`${sql.ref(column)} in (${sql.join(values.map((v) => sql.lit(v)))})`;
}
