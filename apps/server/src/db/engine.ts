import { type Kysely, PostgresAdapter } from 'kysely';

/** Whether a Kysely instance (or transaction) runs on PostgreSQL rather than SQLite. */
export function isPostgres(
  db: Kysely<never> | Kysely<unknown> | { getExecutor(): { adapter: unknown } },
): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
