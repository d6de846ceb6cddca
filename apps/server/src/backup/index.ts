import { chmodSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Config } from '../config/index.ts';
import { migrateToLatest, openConfiguredDatabase } from '../db/index.ts';
import { migrations } from '../db/migrations/index.ts';
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE, syncToDisk } from '../files/dataDir.ts';
import { createFileStorage, type FileStorage } from '../files/storage.ts';
import { serverVersion } from '../version.ts';
import { assertSecretsFit, copyFilesIn, copyFilesOut, copySecretsIn, copySecretsOut } from './files.ts';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  BackupError,
  hashFile,
  MANIFEST_FILE,
  type Manifest,
  readManifest,
  verifyBackup,
} from './manifest.ts';
import {
  countRestoredPostgres,
  dumpPostgres,
  findTool,
  postgresTarget,
  referencedKeysPostgres,
  restorePostgres,
} from './postgres.ts';
import type { SnapshotInfo } from './snapshot.ts';
import {
  assertEmptySqliteTarget,
  LiveSqlite,
  restoreSqlite,
  sqliteCounts,
  sqliteSnapshotInfo,
} from './sqlite.ts';

export { BackupError } from './manifest.ts';

/** What `createBackup` is asked to do. */
export interface BackupOptions {
  /** The folder to write; it must not exist or be empty. */
  folder: string;
  /**
   * Finish even when attachment files of the snapshot are missing from the storage or damaged,
   * listing them in the manifest (without it such a backup fails, naming them).
   */
  allowMissingFiles?: boolean;
  /** The attachments storage to copy from; default: the configuration's (tests wrap it). */
  storage?: FileStorage;
  /** Progress lines for the operator. */
  log?: (line: string) => void;
}

/** What `restoreBackup` is asked to do. */
export interface RestoreOptions {
  /** The backup folder. */
  folder: string;
  log?: (line: string) => void;
}

/** Creates the backup folder (0700), or takes an empty one; answers whether it was created. */
function prepareFolder(folder: string): boolean {
  if (existsSync(folder)) {
    if (readdirSync(folder).length > 0) {
      throw new BackupError(`${folder} is not empty: give a new folder for the backup.`);
    }
    chmodSync(folder, PRIVATE_FOLDER_MODE);
    return false;
  }
  mkdirSync(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  chmodSync(folder, PRIVATE_FOLDER_MODE);
  return true;
}

/** `1234567` as `1.2 MB`, for progress lines. */
function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The database kind a configuration uses. */
function kindOf(config: Config): 'sqlite' | 'postgres' {
  return config.databaseUrl ? 'postgres' : 'sqlite';
}

/**
 * Backs up a BTalk instance, while it serves, into a folder: a consistent snapshot of the database
 * (SQLite's online backup API, or pg_dump of one exported snapshot), the file of every attachment
 * row in that snapshot (through the configured FileStorage), the secrets DATA_DIR holds, and
 * manifest.json with the checksum of each (written last). Everything acknowledged before it started
 * is in it. The folder is 0700 and its files 0600: it holds secrets.
 */
export async function createBackup(config: Config, options: BackupOptions): Promise<Manifest> {
  const log = options.log ?? (() => {});
  const folder = path.resolve(options.folder);
  if (config.dataDir === ':memory:') {
    throw new BackupError('DATA_DIR is :memory:: an in-memory BTalk keeps nothing to back up.');
  }
  const kind = kindOf(config);
  // Before the folder is made: a missing database or program fails without leaving anything behind.
  if (kind === 'postgres') findTool('pg_dump');
  const live = kind === 'sqlite' ? new LiveSqlite(config.dataDir) : null;
  let created: boolean;
  try {
    created = prepareFolder(folder);
  } catch (error) {
    live?.close();
    throw error;
  }
  let storage: FileStorage | null = null;
  try {
    storage = options.storage ?? createFileStorage(config);
    log(
      `BTalk ${serverVersion}: backing up ${kind === 'sqlite' ? `SQLite in ${config.dataDir}` : 'PostgreSQL'} to ${folder}`,
    );
    const databaseFile = kind === 'sqlite' ? 'database.sqlite' : 'database.pgdump';
    const databasePath = path.join(folder, databaseFile);
    let info: SnapshotInfo;
    let createdAt: string;
    let postgres: { schema: string; extensions: { name: string; schema: string }[] } | null = null;
    if (live) {
      createdAt = new Date().toISOString();
      await live.snapshot(databasePath);
      info = sqliteSnapshotInfo(databasePath);
    } else {
      const dumped = await dumpPostgres(config.databaseUrl!, databasePath);
      createdAt = dumped.takenAt;
      info = dumped;
      postgres = { schema: dumped.schema, extensions: dumped.extensions };
    }
    const database = await hashFile(databasePath);
    log(
      `database: snapshot taken at ${createdAt} (${size(database.bytes)}; ${info.counts.posts ?? 0} posts, ` +
        `${info.counts.attachments ?? 0} attachments, ${info.counts.call_answers ?? 0} call-tree answers)`,
    );

    const { files, problems } = await copyFilesOut(storage, info.attachments, folder);
    const missingFiles: Manifest['missingFiles'] = [];
    if (problems.length > 0) {
      // An upload never posted may have been cleaned up (row, then file) since the snapshot.
      const keys = problems.map((p) => p.key);
      const stillNamed = live
        ? live.referencedKeys(keys)
        : await referencedKeysPostgres(config.databaseUrl!, keys);
      const removed = problems.filter((p) => p.reason === 'missing' && !stillNamed.has(p.key));
      const broken = problems.filter((p) => !removed.includes(p));
      if (removed.length > 0) {
        log(
          `files: ${removed.length} upload(s) in the snapshot were removed while the backup ran (never posted, ` +
            'cleaned up): left out',
        );
      }
      if (broken.length > 0 && !options.allowMissingFiles) {
        const listed = broken
          .slice(0, 10)
          .map((p) => `${p.key}: ${p.detail}`)
          .join('\n  ');
        throw new BackupError(
          `${broken.length} attachment file(s) of the database are missing or damaged in the storage:\n  ${listed}\n` +
            'Check the attachments storage; to back up anyway, listing them in the manifest, run again with ' +
            '--allow-missing-files.',
        );
      }
      for (const p of broken) log(`files: ${p.key} ${p.reason} (${p.detail}): listed in the manifest`);
      for (const p of removed) missingFiles.push({ key: p.key, reason: 'removed' });
      for (const p of broken) missingFiles.push({ key: p.key, reason: p.reason });
    }
    const kept = files.filter((f) => !missingFiles.some((m) => m.key === f.key));
    log(`files: ${kept.length} copied (${size(kept.reduce((sum, f) => sum + f.bytes, 0))})`);

    const secrets = await copySecretsOut(config.dataDir, folder);
    log(
      secrets.length > 0
        ? `secrets from DATA_DIR: ${secrets.map((s) => s.name).join(', ')} (keep this backup private)`
        : 'secrets: none in DATA_DIR (set by the environment)',
    );

    const manifest: Manifest = {
      format: BACKUP_FORMAT,
      formatVersion: BACKUP_FORMAT_VERSION,
      btalkVersion: serverVersion,
      createdAt,
      database: {
        kind,
        file: databaseFile,
        ...database,
        newestMigration: info.newestMigration,
        ...(postgres ?? {}),
        counts: info.counts,
      },
      files: kept,
      missingFiles,
      secrets,
    };
    const manifestFile = path.join(folder, MANIFEST_FILE);
    writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`, {
      mode: PRIVATE_FILE_MODE,
      flag: 'wx',
    });
    await syncToDisk(manifestFile);
    await syncToDisk(folder);
    log(`done: ${folder}`);
    return manifest;
  } catch (error) {
    if (created) rmSync(folder, { recursive: true, force: true });
    else
      for (const entry of readdirSync(folder))
        rmSync(path.join(folder, entry), { recursive: true, force: true });
    throw error;
  } finally {
    live?.close();
    if (!options.storage) await storage?.close();
  }
}

/** Rows per table of the restored database. */
async function restoredCounts(config: Config): Promise<Record<string, number>> {
  if (kindOf(config) === 'postgres') return countRestoredPostgres(config.databaseUrl!);
  const db = new DatabaseSync(path.join(config.dataDir, 'btalk.sqlite'), { readOnly: true });
  try {
    return sqliteCounts(db);
  } finally {
    db.close();
  }
}

/**
 * Restores a backup folder into the configuration's empty target (DATA_DIR, DATABASE_URL's database
 * and schema, the attachments storage). Every checksum is verified before anything is written; a
 * target that already holds a BTalk database is refused. Files and secrets go in first, the
 * database last; then its row counts are checked against the manifest, and the migrations this
 * version has beyond the backup's are applied. Answers the manifest.
 */
export async function restoreBackup(config: Config, options: RestoreOptions): Promise<Manifest> {
  const log = options.log ?? (() => {});
  const folder = path.resolve(options.folder);
  const manifest = readManifest(folder);
  const { database } = manifest;
  log(
    `backup of ${manifest.createdAt} by BTalk ${manifest.btalkVersion}: ${database.kind}, ` +
      `${database.counts.posts ?? 0} posts, ${manifest.files.length} files, ${manifest.secrets.length} secrets`,
  );
  const kind = kindOf(config);
  if (database.kind !== kind) {
    throw new BackupError(
      `This backup is of a ${database.kind === 'sqlite' ? 'SQLite' : 'PostgreSQL'} database, and this configuration ` +
        `uses ${kind === 'sqlite' ? 'SQLite (DATABASE_URL is not set)' : 'PostgreSQL (DATABASE_URL)'}: restore it into the same kind.`,
    );
  }
  if (database.newestMigration && !(database.newestMigration in migrations)) {
    throw new BackupError(
      `This backup was made by a newer BTalk (${manifest.btalkVersion}; migration ${database.newestMigration} is ` +
        `unknown to ${serverVersion}): restore it with that version or a newer one.`,
    );
  }
  if (config.dataDir === ':memory:') {
    throw new BackupError('DATA_DIR is :memory:: give the folder the restored BTalk will run on.');
  }
  await verifyBackup(folder, manifest);
  log('checksums: every file matches the manifest');
  if (kind === 'sqlite') assertEmptySqliteTarget(config.dataDir);
  else await postgresTarget(config.databaseUrl!, Object.keys(database.counts));
  await assertSecretsFit(manifest, config.dataDir);
  if (manifest.missingFiles.length > 0) {
    log(
      `note: ${manifest.missingFiles.length} attachment(s) had no file in the backup ` +
        `(${manifest.missingFiles.map((m) => `${m.key} ${m.reason}`).join(', ')}); they will answer 404`,
    );
  }

  const storage = createFileStorage(config);
  try {
    const check = await storage.check();
    if (!check.ok)
      throw new BackupError(`The attachments storage cannot be used: ${check.reason} (${check.detail}).`);
    const stored = await copyFilesIn(storage, manifest, folder);
    log(`files: ${stored} stored, ${manifest.files.length - stored} were already there`);
  } finally {
    await storage.close();
  }
  const secrets = await copySecretsIn(manifest, folder, config.dataDir);
  if (secrets.length > 0) log(`secrets into DATA_DIR: ${secrets.join(', ')}`);

  const archive = path.join(folder, database.file);
  if (kind === 'sqlite') {
    await restoreSqlite(archive, config.dataDir);
    log(`database: restored into ${path.join(config.dataDir, 'btalk.sqlite')}`);
  } else {
    const schema = await restorePostgres({
      databaseUrl: config.databaseUrl!,
      archive,
      schema: database.schema ?? 'public',
      tables: Object.keys(database.counts),
      extensions: database.extensions ?? [],
      log,
    });
    log(`database: restored into schema ${schema}`);
  }

  const counts = await restoredCounts(config);
  const differing = Object.entries(database.counts).filter(([table, rows]) => counts[table] !== rows);
  if (differing.length > 0) {
    throw new BackupError(
      `The restored database does not hold the rows the manifest counts (${differing
        .slice(0, 5)
        .map(([table, rows]) => `${table}: ${counts[table] ?? 'no table'} instead of ${rows}`)
        .join('; ')}): do not use it; restore again into an empty target.`,
    );
  }
  log('database: every table holds the rows the manifest counts');

  const db = openConfiguredDatabase(config);
  try {
    const applied = await migrateToLatest(db);
    log(
      applied.length > 0
        ? `migrations applied for BTalk ${serverVersion}: ${applied.join(', ')}`
        : 'migrations: the backup is at this version',
    );
  } finally {
    await db.close();
  }
  log('done: start BTalk with this configuration');
  return manifest;
}
