import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe } from 'vitest';
import { type DatabaseKind, type Db, migrateToLatest, openDatabase } from '../db/index.ts';

/** The PostgreSQL that tests use: the local server unless TEST_DATABASE_URL says otherwise. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function canReachPostgres(): Promise<string | null> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => {});
  }
}

const unreachable = await canReachPostgres();
if (unreachable && process.env.CI === 'true') {
  throw new Error(
    `PostgreSQL at ${TEST_DATABASE_URL} is not reachable (${unreachable}). Under CI=true the PostgreSQL ` +
      'runs are required: start PostgreSQL or set TEST_DATABASE_URL.',
  );
}

/** The databases the storage tests run on: SQLite always, PostgreSQL when it is reachable. */
export const testDatabaseKinds: DatabaseKind[] = unreachable ? ['sqlite'] : ['sqlite', 'postgres'];

/** A migrated database of its own for one test file, and how to throw it away. */
export interface TestDatabase {
  db: Db;
  /** Closes the database and, on PostgreSQL, drops the test's schema. */
  cleanup(): Promise<void>;
}

/** Opens a fresh, migrated database: in-memory SQLite, or a new schema in the test PostgreSQL. */
export async function openTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  if (kind === 'sqlite') {
    const db = openDatabase({ dataDir: ':memory:' });
    await migrateToLatest(db);
    return { db, cleanup: () => db.close() };
  }
  const schema = `btalk_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const db = openDatabase({
    databaseUrl: TEST_DATABASE_URL,
    dataDir: ':memory:',
    pgSchema: schema,
    poolSize: 4,
  });
  await migrateToLatest(db);
  return {
    db,
    async cleanup() {
      await db.close();
      const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    },
  };
}

/**
 * Declares a suite once per test database. When PostgreSQL is not reachable (and CI is not set),
 * says plainly that its runs were skipped.
 */
export function describeEachDatabase(name: string, suite: (kind: DatabaseKind) => void): void {
  if (unreachable) {
    console.warn(
      `SKIPPED the PostgreSQL runs of "${name}": ${TEST_DATABASE_URL} is not reachable (${unreachable}).`,
    );
  }
  for (const kind of testDatabaseKinds) {
    describe(`${name} [${kind}]`, () => suite(kind));
  }
}
