import { existsSync, rmSync, statSync } from 'node:fs';
import { copyFile, open, rename } from 'node:fs/promises';
import path from 'node:path';
import { backup, DatabaseSync } from 'node:sqlite';
import { makePrivateFile, PRIVATE_FILE_MODE, syncToDisk } from '../files/dataDir.ts';
import { BackupError, SQLITE_FILE } from './manifest.ts';
import type { SnapshotInfo } from './snapshot.ts';

/**
 * Pages copied per step of SQLite's online backup: all of them in one step. A step reads inside one
 * read transaction, so the copy is the database as of one moment; in WAL mode that transaction does
 * not hold the server's writers back. Smaller steps would let every commit of the server in between
 * restart the copy from the beginning, which under steady writes may never finish.
 */
const ALL_PAGES = 2_147_483_647;

/** The live SQLite database of a DATA_DIR, opened for the backup (never written to). */
export class LiveSqlite {
  readonly #db: DatabaseSync;

  constructor(dataDir: string) {
    const file = path.join(dataDir, SQLITE_FILE);
    if (!existsSync(file) || statSync(file).size === 0) {
      throw new BackupError(
        `No BTalk database at ${file}: check DATA_DIR (the server's folder), or set DATABASE_URL for PostgreSQL.`,
      );
    }
    this.#db = new DatabaseSync(file, { timeout: 10_000 });
    this.#db.exec('PRAGMA query_only = ON');
  }

  /**
   * Copies the database as of one moment into `target` (0600) with the online backup API of
   * node:sqlite, while the server goes on writing; the copy is then one self-contained file
   * (rollback journal instead of WAL) that passed SQLite's quick check.
   */
  async snapshot(target: string): Promise<void> {
    makePrivateFile(target);
    await backup(this.#db, target, { rate: ALL_PAGES });
    const copy = new DatabaseSync(target);
    try {
      copy.exec('PRAGMA journal_mode = DELETE');
      const check = copy.prepare('PRAGMA quick_check').all() as { quick_check: string }[];
      if (check.length !== 1 || check[0]?.quick_check !== 'ok') {
        throw new BackupError(
          `SQLite's check of the snapshot failed (${check
            .slice(0, 3)
            .map((c) => c.quick_check)
            .join('; ')}): the live database may be damaged; see https://sqlite.org/recovery.html`,
        );
      }
    } finally {
      copy.close();
    }
    const handle = await open(target, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  /** The storage keys among `keys` that attachment rows of the live database still name. */
  referencedKeys(keys: string[]): Set<string> {
    const found = new Set<string>();
    const statement = this.#db.prepare('select 1 from attachments where storage_key = ?');
    for (const key of keys) if (statement.get(key)) found.add(key);
    return found;
  }

  close(): void {
    this.#db.close();
  }
}

/** Tables of a SQLite database (virtual tables left out: their rows are those of their shadow tables). */
function sqliteTables(db: DatabaseSync): string[] {
  const rows = db
    .prepare(
      "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' " +
        "and sql not like 'CREATE VIRTUAL%' order by name",
    )
    .all() as { name: string }[];
  return rows.map((r) => r.name);
}

/** Rows per table of a SQLite database. */
export function sqliteCounts(db: DatabaseSync): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const table of sqliteTables(db)) {
    const row = db.prepare(`select count(*) as n from "${table.replaceAll('"', '""')}"`).get() as {
      n: number;
    };
    counts[table] = Number(row.n);
  }
  return counts;
}

/** What the backup needs to know of a SQLite snapshot file: attachments, counts, newest migration. */
export function sqliteSnapshotInfo(file: string): SnapshotInfo {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const tables = new Set(sqliteTables(db));
    if (!tables.has('kysely_migration') || !tables.has('attachments')) {
      throw new BackupError(`${file} holds no BTalk tables: the server has never started on this DATA_DIR.`);
    }
    const attachments = db
      .prepare('select storage_key as key, size_bytes as bytes from attachments order by storage_key')
      .all() as { key: string; bytes: number }[];
    const newest = db.prepare('select name from kysely_migration order by name desc limit 1').get() as
      | { name: string }
      | undefined;
    return {
      attachments: attachments.map((a) => ({ key: a.key, bytes: Number(a.bytes) })),
      counts: sqliteCounts(db),
      newestMigration: newest?.name ?? null,
    };
  } finally {
    db.close();
  }
}

/**
 * Refuses a DATA_DIR whose database already holds tables: a restore never overwrites data. An empty
 * file (a server that opened the folder but never migrated) counts as empty.
 */
export function assertEmptySqliteTarget(dataDir: string): void {
  const file = path.join(dataDir, SQLITE_FILE);
  if (!existsSync(file) || statSync(file).size === 0) return;
  const db = new DatabaseSync(file, { timeout: 10_000 });
  let tables: string[];
  try {
    db.exec('PRAGMA query_only = ON');
    tables = sqliteTables(db);
  } finally {
    db.close();
  }
  if (tables.length > 0) {
    throw new BackupError(
      `${file} already holds a database (${tables.length} tables): a restore never overwrites one. ` +
        'Stop BTalk and move DATA_DIR (or at least btalk.sqlite and its -wal and -shm files) aside, or ' +
        'restore into a new DATA_DIR.',
    );
  }
}

/**
 * Puts the snapshot in place as DATA_DIR/btalk.sqlite: copied beside it, flushed, then renamed over
 * the (empty) one, so the database appears whole or not at all.
 */
export async function restoreSqlite(snapshot: string, dataDir: string): Promise<void> {
  const file = path.join(dataDir, SQLITE_FILE);
  const partial = `${file}.restoring`;
  rmSync(partial, { force: true });
  await copyFile(snapshot, partial);
  const handle = await open(partial, 'r+');
  try {
    await handle.chmod(PRIVATE_FILE_MODE);
    await handle.sync();
  } finally {
    await handle.close();
  }
  // An empty database's companions would otherwise be taken for the restored one's.
  for (const companion of [`${file}-wal`, `${file}-shm`, `${file}-journal`])
    rmSync(companion, { force: true });
  await rename(partial, file);
  await syncToDisk(dataDir);
}
