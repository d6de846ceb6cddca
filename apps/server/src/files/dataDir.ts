import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  existsSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';

/** Folders in DATA_DIR: the server's user only. */
export const PRIVATE_FOLDER_MODE = 0o700;
/** Files in DATA_DIR (database, secrets, keys, attachments): the server's user only. */
export const PRIVATE_FILE_MODE = 0o600;

/** Flushes a file, or a folder's entries (a new file's name, a new subfolder), to the disk. */
export async function syncToDisk(target: string): Promise<void> {
  const handle = await open(target, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * A secret kept in DATA_DIR under `name` (the token secret, the development directory's key, the VAPID
 * keys): read when it is there, else made by `make` and kept. Instances starting at the same moment on
 * one DATA_DIR all answer the same secret: the new file is written whole and flushed under a name of its
 * own, then linked into place, which fails for every instance but the first (they read the winner's);
 * nobody reads a half-written file.
 */
export function keptSecret(dataDir: string, name: string, make: () => string): string {
  const file = path.join(dataDir, name);
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
  }
  makePrivateFolder(dataDir);
  const temporary = `${file}.${process.pid}-${randomBytes(6).toString('hex')}.new`;
  const fd = openSync(temporary, 'wx', PRIVATE_FILE_MODE);
  try {
    writeSync(fd, make());
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temporary, file);
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
  } finally {
    rmSync(temporary, { force: true });
  }
  return readFileSync(file, 'utf8');
}

/** Creates a folder and its missing parents, readable by the server's user only. */
export function makePrivateFolder(folder: string): void {
  mkdirSync(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
}

/**
 * Creates an empty file readable by the server's user only, unless it exists. SQLite gives its WAL
 * and shared-memory files the mode of the database file, so creating that one first is enough.
 */
export function makePrivateFile(file: string): void {
  closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
}

/** Sets `mode` when others (group or world) may read or enter `target`; answers whether it did. */
function tighten(target: string, mode: number): boolean {
  if ((statSync(target).mode & 0o077) === 0) return false;
  chmodSync(target, mode);
  return true;
}

/**
 * Makes DATA_DIR private before the server uses it: creates it (0700), and tightens what an older
 * BTalk, a restored backup or an operator left open to other users: DATA_DIR, its folders and the
 * attachment folders to 0700, the files directly in it (database, WAL, token secret, keys) to 0600.
 * Attachment files are not walked: their folders already shut others out. Answers the paths it
 * changed, for a log line. Symbolic links are left alone.
 */
export function secureDataDir(dataDir: string): string[] {
  if (dataDir === ':memory:') return [];
  makePrivateFolder(dataDir);
  const changed: string[] = [];
  const visit = (target: string, mode: number) => {
    if (tighten(target, mode)) changed.push(target);
  };
  visit(dataDir, PRIVATE_FOLDER_MODE);
  for (const entry of readdirSync(dataDir, { withFileTypes: true })) {
    const target = path.join(dataDir, entry.name);
    if (entry.isFile()) visit(target, PRIVATE_FILE_MODE);
    else if (entry.isDirectory()) visit(target, PRIVATE_FOLDER_MODE);
  }
  const files = path.join(dataDir, 'files');
  if (existsSync(files)) {
    for (const entry of readdirSync(files, { withFileTypes: true })) {
      if (entry.isDirectory()) visit(path.join(files, entry.name), PRIVATE_FOLDER_MODE);
    }
  }
  return changed;
}
