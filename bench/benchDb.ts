/**
 * The database a benchmark runs on: a SQLite file in a fresh folder, or with `postgres` a fresh
 * schema on the local PostgreSQL (`TEST_DATABASE_URL`, as the server tests make one:
 * apps/server/src/test/db.ts). `cleanup` drops the schema or removes the folder; call it after the
 * database is closed.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type Config, loadConfig } from '../apps/server/src/config/index.ts';
import { type Db, migrateToLatest, openDatabase } from '../apps/server/src/db/index.ts';

export const BENCH_PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface BenchDatabase {
  db: Db;
  /** The SQLite file's folder (also the app's DATA_DIR), or ':memory:' on PostgreSQL. */
  dataDir: string;
  label: 'sqlite' | 'postgres';
  cleanup(): Promise<void>;
}

export async function openBenchDatabase(postgres: boolean): Promise<BenchDatabase> {
  if (!postgres) {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'btalk-bench-'));
    return {
      db: openDatabase({ dataDir }),
      dataDir,
      label: 'sqlite',
      cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const schema = `btalk_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: BENCH_PG_URL, connectionTimeoutMillis: 3000 });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  return {
    db: openDatabase({ databaseUrl: BENCH_PG_URL, dataDir: ':memory:', pgSchema: schema }),
    dataDir: ':memory:',
    label: 'postgres',
    cleanup: async () => {
      await admin.query(`drop schema ${schema} cascade`).catch(() => {});
      await admin.end();
    },
  };
}

/**
 * The database of a benchmark's forked server (bench/*-server.ts), migrated. The parent ends the run
 * with SIGTERM: the server's app (`running()`, once started) and the database close, the schema is
 * dropped or the folder removed, and the process exits; a SQLite folder goes on any other exit too.
 */
export async function openServerBenchDatabase(
  postgres: boolean,
  running: () => { close(): Promise<unknown> } | undefined,
): Promise<Omit<BenchDatabase, 'cleanup'>> {
  const { cleanup, ...opened } = await openBenchDatabase(postgres);
  process.on('exit', () => {
    if (opened.label === 'sqlite') void cleanup();
  });
  process.once('SIGTERM', async () => {
    await running()
      ?.close()
      .catch(() => {});
    await opened.db.close().catch(() => {});
    await cleanup();
    process.exit(0);
  });
  await migrateToLatest(opened.db);
  return opened;
}

/**
 * The configuration a benchmark's server runs with: production, as deployed (answers are not
 * re-validated against their schemas there, see apps/server/src/http/serializer.ts), with fresh
 * secrets, and a write limit far above what one person may do (a benchmark's authors write hundreds
 * of times a minute).
 */
export function productionBenchConfig(dataDir: string): Config {
  return loadConfig({
    BTALK_ENV: 'production',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    API_KEY: randomBytes(24).toString('base64url'),
    JWT_SECRET: randomBytes(48).toString('base64url'),
    PUBLIC_URL: 'https://btalk.bench.test',
    OIDC_ISSUER: 'https://directory.bench.test',
    DIRECTORY_CLIENT_ID: 'bench',
    DIRECTORY_CLIENT_SECRET: randomBytes(24).toString('base64url'),
    WRITE_RATE_LIMIT_PER_MINUTE: '1000000',
  });
}
