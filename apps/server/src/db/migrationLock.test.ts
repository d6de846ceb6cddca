import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { expect, it } from 'vitest';
import { describeEachDatabase, TEST_DATABASE_URL } from '../test/db.ts';
import { checkReady, migrateToLatest, openDatabase } from './index.ts';
import { migrations } from './migrations/index.ts';

/*
 * docs/operations.md, upgrades: every instance migrates at start, and instances of a cluster start
 * together. Kysely's migrator takes a lock (an advisory lock on PostgreSQL) so that one of them
 * applies each migration and the others find it done.
 */
describeEachDatabase('migrations started by several instances at once', (kind) => {
  it.runIf(kind === 'postgres')('apply each migration once, by one of them, and all come up', async () => {
    const schema = `btalk_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    const instances = Array.from({ length: 3 }, () =>
      openDatabase({ databaseUrl: TEST_DATABASE_URL, dataDir: ':memory:', pgSchema: schema, poolSize: 2 }),
    );
    try {
      const applied = await Promise.all(instances.map((db) => migrateToLatest(db)));
      // Every migration applied exactly once across the three, whichever took the lock first.
      expect(applied.flat().sort()).toEqual(Object.keys(migrations).sort());
      for (const db of instances) {
        expect(await checkReady(db)).toEqual({ ok: true, migration: Object.keys(migrations).at(-1) });
      }
    } finally {
      await Promise.all(instances.map((db) => db.close()));
      await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.end();
    }
  });
});
