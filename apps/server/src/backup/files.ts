import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { copyFile, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { makePrivateFolder, PRIVATE_FILE_MODE, syncToDisk } from '../files/dataDir.ts';
import { type FileStorage, isMissingFile } from '../files/storage.ts';
import { BackupError, backupFilePath, DATA_DIR_SECRETS, hashFile, type Manifest } from './manifest.ts';

/** Files copied side by side: enough to hide an object store's latency, few enough for a small disk. */
const PARALLEL_FILES = 4;

/** Runs `fn` on every item, at most `limit` at a time; stops at the first failure. */
async function eachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next]!;
      next += 1;
      await fn(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Writes a stream into a new file (0600), flushed, answering its size and sha256; no file on failure. */
async function writePrivate(target: string, content: Readable): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  let bytes = 0;
  const handle = await open(target, 'wx', PRIVATE_FILE_MODE);
  try {
    try {
      for await (const chunk of content) {
        const data: Buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
        hash.update(data);
        for (let at = 0; at < data.length; ) at += (await handle.write(data, at)).bytesWritten;
        bytes += data.length;
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    await rm(target, { force: true });
    throw error;
  }
  return { bytes, sha256: hash.digest('hex') };
}

/** An attachment row of the snapshot whose file could not be copied. */
export interface FileProblem {
  key: string;
  reason: 'missing' | 'damaged';
  /** For the message: what was found. */
  detail: string;
}

/**
 * Copies the file of every attachment row of the snapshot from the storage into `<folder>/files`,
 * with its size and sha256. A file the storage does not have, or whose size is not its row's, is a
 * problem for the caller to judge; any other error of the storage stops the backup.
 */
export async function copyFilesOut(
  storage: FileStorage,
  attachments: { key: string; bytes: number }[],
  folder: string,
): Promise<{ files: Manifest['files']; problems: FileProblem[] }> {
  const files: Manifest['files'] = [];
  const problems: FileProblem[] = [];
  const unique = [...new Map(attachments.map((a) => [a.key, a])).values()];
  const folders = new Set<string>();
  await eachLimited(unique, PARALLEL_FILES, async ({ key, bytes: expected }) => {
    let content: Readable;
    try {
      content = await storage.read(key);
    } catch (error) {
      if (!isMissingFile(error)) throw error;
      problems.push({ key, reason: 'missing', detail: 'not in the attachments storage' });
      return;
    }
    const target = backupFilePath(folder, key);
    makePrivateFolder(path.dirname(target));
    folders.add(path.dirname(target));
    let written: { bytes: number; sha256: string };
    try {
      written = await writePrivate(target, content);
    } catch (error) {
      if (!isMissingFile(error)) throw error;
      problems.push({ key, reason: 'missing', detail: 'removed from the storage while it was read' });
      return;
    }
    if (written.bytes !== expected) {
      problems.push({
        key,
        reason: 'damaged',
        detail: `${written.bytes} bytes in the storage, ${expected} in its attachment row`,
      });
    }
    files.push({ key, ...written });
  });
  for (const written of folders) await syncToDisk(written);
  if (folders.size > 0) await syncToDisk(path.join(folder, 'files'));
  files.sort((a, b) => a.key.localeCompare(b.key));
  return { files, problems };
}

/**
 * Puts every file of the backup into the target's storage. A key the storage already holds with the
 * same content is left as it is (a restore run again after a failure); with other content it stops.
 */
export async function copyFilesIn(storage: FileStorage, manifest: Manifest, folder: string): Promise<number> {
  let stored = 0;
  await eachLimited(manifest.files, PARALLEL_FILES, async (file) => {
    const source = backupFilePath(folder, file.key);
    try {
      await storage.put(file.key, createReadStream(source));
      stored += 1;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
      const hash = createHash('sha256');
      for await (const chunk of await storage.read(file.key)) hash.update(chunk as Buffer);
      if (hash.digest('hex') !== file.sha256) {
        throw new BackupError(
          `The attachments storage already holds another file under ${file.key}: it belongs to another ` +
            'BTalk. Restore into an empty DATA_DIR (or an empty bucket or prefix).',
        );
      }
    }
  });
  return stored;
}

/** Copies the secrets DATA_DIR holds into `<folder>/secrets` (0600). */
export async function copySecretsOut(dataDir: string, folder: string): Promise<Manifest['secrets']> {
  const secrets: Manifest['secrets'] = [];
  const present = DATA_DIR_SECRETS.filter((name) => existsSync(path.join(dataDir, name)));
  if (present.length === 0) return secrets;
  makePrivateFolder(path.join(folder, 'secrets'));
  for (const name of present) {
    const written = await writePrivate(
      path.join(folder, 'secrets', name),
      createReadStream(path.join(dataDir, name)),
    );
    secrets.push({ name, ...written });
  }
  await syncToDisk(path.join(folder, 'secrets'));
  return secrets;
}

/**
 * Refuses secrets in the target DATA_DIR that differ from the backup's: they belong to another
 * BTalk, and the restored sessions and push subscriptions need the backed-up ones.
 */
export async function assertSecretsFit(manifest: Manifest, dataDir: string): Promise<void> {
  for (const secret of manifest.secrets) {
    const target = path.join(dataDir, secret.name);
    if (existsSync(target) && (await hashFile(target)).sha256 !== secret.sha256) {
      throw new BackupError(
        `${target} already exists and differs from the backup's: it belongs to another BTalk. Restore into ` +
          'an empty DATA_DIR (the restored sessions and push subscriptions need the backed-up secrets).',
      );
    }
  }
}

/** Puts the backup's secrets into DATA_DIR (0600); answers their names. */
export async function copySecretsIn(manifest: Manifest, folder: string, dataDir: string): Promise<string[]> {
  makePrivateFolder(dataDir);
  for (const secret of manifest.secrets) {
    const target = path.join(dataDir, secret.name);
    if (existsSync(target)) continue; // the same content: assertSecretsFit
    const partial = `${target}.restoring`;
    await copyFile(path.join(folder, 'secrets', secret.name), partial);
    const handle = await open(partial, 'r+');
    try {
      await handle.chmod(PRIVATE_FILE_MODE);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(partial, target);
  }
  await syncToDisk(dataDir);
  return manifest.secrets.map((s) => s.name);
}
