import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { STORAGE_KEY } from '../files/storage.ts';

/** A backup or restore that cannot go on; the message says why and what to do. */
export class BackupError extends Error {
  override name = 'BackupError';
}

/** The manifest's file name in a backup folder; written last, so a folder without one is unfinished. */
export const MANIFEST_FILE = 'manifest.json';
/** What `format` says in every BTalk backup's manifest. */
export const BACKUP_FORMAT = 'btalk-backup';
/** The layout of the folder; a restore refuses a newer one than it knows. */
export const BACKUP_FORMAT_VERSION = 1;

/**
 * The files DATA_DIR holds besides the database and the attachments: secrets made on first start
 * when the environment does not set them. A restored instance needs them for the sessions, push
 * subscriptions and sealed directory tokens of the backed-up one. Add a file here when the server
 * starts keeping another one in DATA_DIR (the backup test fails on a file it does not know).
 */
export const DATA_DIR_SECRETS = [
  /** Signs access tokens; the sealing keys of directory tokens are derived from it (auth/secrets.ts). */
  'token-secret',
  /** The Web Push identity browsers subscribed with (notifications/vapid.ts). */
  'vapid.json',
  /** The development directory's signing key (directory/keys.ts). */
  'directory-key.json',
] as const;

/** Names of the SQLite database and its companions in DATA_DIR (db/index.ts). */
export const SQLITE_FILE = 'btalk.sqlite';

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, { message: 'must be a sha256 in hex' });

/** One file in the backup folder with its size and checksum. */
const StoredFile = z.object({ bytes: z.number().int().min(0), sha256: Sha256 });

/** manifest.json: what a backup holds, and the checksum of every file in it. */
export const Manifest = z.object({
  /** Always `btalk-backup`. */
  format: z.literal(BACKUP_FORMAT),
  /** The folder's layout version (BACKUP_FORMAT_VERSION of the BTalk that wrote it). */
  formatVersion: z.number().int().min(1),
  /** The version of the BTalk that made it (apps/server/package.json). */
  btalkVersion: z.string(),
  /** When the database snapshot was taken (ISO 8601, UTC). */
  createdAt: z.string(),
  database: StoredFile.extend({
    /** `sqlite`: a SQLite file made with the online backup API; `postgres`: a pg_dump custom-format archive. */
    kind: z.enum(['sqlite', 'postgres']),
    /** The file's name in the folder. */
    file: z.enum(['database.sqlite', 'database.pgdump']),
    /** The newest migration applied in the snapshot (null: none). */
    newestMigration: z.string().nullable(),
    /** PostgreSQL: the schema that was dumped. */
    schema: z.string().optional(),
    /** PostgreSQL: extensions BTalk's tables use, and the schema each lives in (pg_trgm). */
    extensions: z.array(z.object({ name: z.string(), schema: z.string() })).optional(),
    /** Rows per table in the snapshot; a restore finds the same counts. */
    counts: z.record(z.string(), z.number().int().min(0)),
  }),
  /** Every attachment file the snapshot's attachments name, under `files/<last two>/<key>`. */
  files: z.array(
    StoredFile.extend({ key: z.string().regex(STORAGE_KEY, { message: 'is not a storage key' }) }),
  ),
  /**
   * Attachment rows of the snapshot whose file is not in the backup: `removed` (its upload was
   * cleaned up while the backup ran: never posted, and its row was gone too), `missing` or `damaged`
   * (kept by --allow-missing-files).
   */
  missingFiles: z.array(
    z.object({
      key: z.string().regex(STORAGE_KEY, { message: 'is not a storage key' }),
      reason: z.enum(['removed', 'missing', 'damaged']),
    }),
  ),
  /** Secrets from DATA_DIR, under `secrets/<name>`. */
  secrets: z.array(StoredFile.extend({ name: z.enum(DATA_DIR_SECRETS) })),
});
export type Manifest = z.infer<typeof Manifest>;

/** Where an attachment's file lives in a backup folder (two levels, as in the local storage). */
export function backupFilePath(folder: string, key: string): string {
  return path.join(folder, 'files', key.slice(-2), key);
}

/** The sha256 (hex) and size of a file, read as a stream. */
export async function hashFile(file: string): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(file)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { bytes, sha256: hash.digest('hex') };
}

/** Reads and checks a backup folder's manifest.json (the format it names, and its shape). */
export function readManifest(folder: string): Manifest {
  const file = path.join(folder, MANIFEST_FILE);
  if (!existsSync(folder)) throw new BackupError(`No backup folder at ${folder}.`);
  if (!existsSync(file)) {
    throw new BackupError(
      `${folder} has no ${MANIFEST_FILE}: it is not a BTalk backup, or its backup did not finish.`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new BackupError(`${file} is not JSON (${(error as Error).message}): the backup is damaged.`);
  }
  const version = (json as { formatVersion?: unknown } | null)?.formatVersion;
  if (typeof version === 'number' && version > BACKUP_FORMAT_VERSION) {
    throw new BackupError(
      `${file} is of backup format ${version}, newer than this BTalk knows (${BACKUP_FORMAT_VERSION}): ` +
        'restore it with the BTalk version that made it, or a newer one.',
    );
  }
  const parsed = Manifest.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 5)
      .map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`)
      .join('; ');
    throw new BackupError(`${file} is not a BTalk backup manifest (${issues}).`);
  }
  return parsed.data;
}

/** One file the manifest lists, where it is and what it must be. */
interface Expected {
  /** The path inside the folder, for messages. */
  name: string;
  file: string;
  bytes: number;
  sha256: string;
}

/**
 * Checks every file the manifest lists (database, attachments, secrets) against its size and sha256,
 * before a restore changes anything. Throws a BackupError that lists the first problems.
 */
export async function verifyBackup(folder: string, manifest: Manifest): Promise<void> {
  const { database } = manifest;
  const expected: Expected[] = [
    {
      name: database.file,
      file: path.join(folder, database.file),
      bytes: database.bytes,
      sha256: database.sha256,
    },
    ...manifest.secrets.map((s) => ({
      name: `secrets/${s.name}`,
      file: path.join(folder, 'secrets', s.name),
      bytes: s.bytes,
      sha256: s.sha256,
    })),
    ...manifest.files.map((f) => ({
      name: path.relative(folder, backupFilePath(folder, f.key)),
      file: backupFilePath(folder, f.key),
      bytes: f.bytes,
      sha256: f.sha256,
    })),
  ];
  const problems: string[] = [];
  for (const item of expected) {
    if (!existsSync(item.file)) {
      problems.push(`${item.name} is missing`);
      continue;
    }
    const found = await hashFile(item.file);
    if (found.bytes !== item.bytes || found.sha256 !== item.sha256) {
      problems.push(
        `${item.name} does not match its checksum in ${MANIFEST_FILE} (${found.bytes} bytes, sha256 ` +
          `${found.sha256.slice(0, 12)}..., expected ${item.bytes} bytes, ${item.sha256.slice(0, 12)}...)`,
      );
    }
  }
  if (problems.length > 0) {
    const more = problems.length > 10 ? `\n  ... and ${problems.length - 10} more` : '';
    throw new BackupError(
      `The backup in ${folder} is damaged; nothing was restored:\n  ${problems.slice(0, 10).join('\n  ')}${more}`,
    );
  }
}
