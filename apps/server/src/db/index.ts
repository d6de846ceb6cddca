import path from 'node:path';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Config } from '../config/index.ts';
import { makePrivateFile, makePrivateFolder } from '../files/dataDir.ts';
import { migrations } from './migrations/index.ts';
import { PreparingClient } from './preparingClient.ts';
import type { Database } from './schema.ts';
import { createSqliteDialect } from './sqlite-dialect.ts';
import { WriterActivity } from './sqlite-writer.ts';

export type { Database } from './schema.ts';

/** Which engine a database runs on. */
export type DatabaseKind = 'sqlite' | 'postgres';

/** How busy a database's connections are, for the metrics (metrics/database.ts). */
export type DatabaseActivity =
  /** PostgreSQL: the connection pool's counts now. */
  | { kind: 'postgres'; pool(): { total: number; idle: number; waiting: number; max: number } }
  /** A SQLite file: its group-commit writer (an in-memory database has none). */
  | { kind: 'sqlite'; writer: WriterActivity };

/** An open database: Kysely, the engine, and how to close it. */
export interface Db {
  kysely: Kysely<Database>;
  kind: DatabaseKind;
  /** The PostgreSQL schema it works in, when not the default (tests give each run its own). */
  pgSchema?: string;
  /** How busy its connections are; absent for an in-memory SQLite database. */
  activity?: DatabaseActivity;
  /**
   * A SQLite file: the last event of the log known to be on disk (a COMMIT is read by the other
   * connection a moment before its fsync ends); the realtime hub sends nothing after it. Absent
   * where every committed event is durable (PostgreSQL, in-memory SQLite).
   */
  durableEventSeq?(): number;
  close(): Promise<void>;
}

const lastEventSeqStatements = new WeakMap<DatabaseSync, StatementSync>();

/**
 * The event log's last sequence number on a SQLite connection, as AUTOINCREMENT keeps it (pruning
 * never lowers it); 0 before the log has had an event.
 */
function lastEventSeq(connection: DatabaseSync): number {
  try {
    let statement = lastEventSeqStatements.get(connection);
    if (!statement) {
      statement = connection.prepare("select seq from sqlite_sequence where name = 'events'");
      lastEventSeqStatements.set(connection, statement);
    }
    return Number(statement.get()?.seq ?? 0);
  } catch (error) {
    if (error instanceof Error && /no such table/.test(error.message)) return 0;
    throw error;
  }
}

const TIMESTAMPTZ_OID = 1184;
const TIMESTAMP_OID = 1114;
const INT8_OID = 20;

/** PostgreSQL answers in the same shapes as SQLite: ISO-8601 timestamps, numbers for counts. */
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === TIMESTAMPTZ_OID || oid === TIMESTAMP_OID) return (v: string) => new Date(v).toISOString();
    // bigint counts and sequence numbers stay far below 2^53 in BTalk.
    if (oid === INT8_OID) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format);
  },
};

/** Options for opening the database. */
export interface OpenOptions {
  /** PostgreSQL connection string; when absent, SQLite is used. */
  databaseUrl?: string | undefined;
  /** Folder of the SQLite file (`btalk.sqlite`), or the file `:memory:`. */
  dataDir: string;
  /** PostgreSQL schema to use (tests give each run its own). */
  pgSchema?: string;
  /** Largest number of PostgreSQL connections. */
  poolSize?: number;
}

/** Opens the database that the configuration names: PostgreSQL with `DATABASE_URL`, else SQLite. */
export function openDatabase(options: OpenOptions): Db {
  if (options.databaseUrl) {
    const max = options.poolSize ?? 10;
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max,
      types: pgTypes,
      Client: PreparingClient,
      ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
    });
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return {
      kysely,
      kind: 'postgres',
      activity: {
        kind: 'postgres',
        pool: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max }),
      },
      ...(options.pgSchema ? { pgSchema: options.pgSchema } : {}),
      close: () => kysely.destroy(),
    };
  }
  let file = ':memory:';
  if (options.dataDir !== ':memory:') {
    makePrivateFolder(options.dataDir);
    file = path.join(options.dataDir, 'btalk.sqlite');
    // 0600 before SQLite creates it (0644): its -wal and -shm files take the database file's mode.
    makePrivateFile(file);
  }
  if (file === ':memory:') {
    const kysely = new Kysely<Database>({ dialect: createSqliteDialect(file) });
    return { kysely, kind: 'sqlite', close: () => kysely.destroy() };
  }
  const writer = new WriterActivity();
  writer.markOf = lastEventSeq;
  const kysely = new Kysely<Database>({ dialect: createSqliteDialect(file, writer) });
  return {
    kysely,
    kind: 'sqlite',
    activity: { kind: 'sqlite', writer },
    durableEventSeq: () => writer.durableMark,
    close: () => kysely.destroy(),
  };
}

/** Opens the database of a configuration. */
export function openConfiguredDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'databasePoolSize'>,
): Db {
  return openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
  });
}

/**
 * The migrator. On PostgreSQL it is told the schema it works in: without that, Kysely takes its
 * bookkeeping tables in any other schema of the database (another BTalk, a parallel test run) for
 * its own, skips creating them, and fails with "relation kysely_migration_lock does not exist".
 */
async function migrator(db: Db): Promise<Migrator> {
  let migrationTableSchema: string | undefined;
  if (db.kind === 'postgres') {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db.kysely);
    migrationTableSchema = rows[0]?.schema;
  }
  return new Migrator({
    db: db.kysely,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  });
}

/**
 * Whether a migration run failed only because a schema vanished while Kysely's migrator listed the
 * database's tables (it calls `has_schema_privilege` on every schema's name): another BTalk, such as
 * a parallel test run, dropped its own schema meanwhile. Such a run is tried again.
 */
function vanishedSchema(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '3F000';
}

/** Applies every pending migration; throws with the failing migration's name and cause. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  let run = await (await migrator(db)).migrateToLatest();
  // Each run is one transaction under the migration lock: a failed one applied nothing.
  for (let retry = 0; retry < 5 && run.error && vanishedSchema(run.error); retry++) {
    run = await (await migrator(db)).migrateToLatest();
  }
  const { error, results } = run;
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** SQLite's `PRAGMA synchronous` values by number. */
const SQLITE_SYNCHRONOUS = ['off', 'normal', 'full', 'extra'];

/**
 * How the database makes a commit durable, read on the server's own write connection (a transaction
 * runs on it; a SQLite file also has a read connection): SQLite's `journal_mode` and `synchronous`
 * (a file's writer: `normal`, and it fsyncs the WAL itself before answering a write, `logFsync`),
 * PostgreSQL's `fsync` and `synchronous_commit`.
 * Logged at start, where the kill -9 test reads it: a kill cannot show a missing fsync (the
 * operating system keeps the written pages), only a power cut could.
 */
export async function durabilitySettings(db: Db): Promise<Record<string, string>> {
  if (db.kind === 'sqlite') {
    const { journal, synchronous } = await db.kysely.transaction().execute(async (trx) => ({
      journal: await sql<{ journal_mode: string }>`pragma journal_mode`.execute(trx),
      synchronous: await sql<{ synchronous: number }>`pragma synchronous`.execute(trx),
    }));
    const level = synchronous.rows[0]?.synchronous ?? -1;
    return {
      journalMode: String(journal.rows[0]?.journal_mode),
      synchronous: SQLITE_SYNCHRONOUS[level] ?? String(level),
      // A file's write connection: COMMIT does not wait for the disk, the writer fsyncs the log
      // before it answers (sqlite-writer.ts).
      ...(db.durableEventSeq ? { logFsync: 'before each answer, off the event loop' } : {}),
    };
  }
  const fsync = await sql<{ fsync: string }>`show fsync`.execute(db.kysely);
  const commit = await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(db.kysely);
  return {
    fsync: String(fsync.rows[0]?.fsync),
    synchronousCommit: String(commit.rows[0]?.synchronous_commit),
  };
}

/** Readiness: the database answers and every migration is applied. Returns the newest applied one. */
export async function checkReady(
  db: Db,
): Promise<{ ok: boolean; migration: string | null; reason?: string }> {
  try {
    await sql`select 1`.execute(db.kysely);
    const all = await (await migrator(db)).getMigrations();
    const pending = all.filter((m) => !m.executedAt);
    const applied = all.filter((m) => m.executedAt);
    const newest = applied.at(-1)?.name ?? null;
    if (pending.length > 0) {
      return { ok: false, migration: newest, reason: `${pending.length} migration(s) not applied` };
    }
    return { ok: true, migration: newest };
  } catch (error) {
    return { ok: false, migration: null, reason: error instanceof Error ? error.message : String(error) };
  }
}
