import { createReadStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { open, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { makePrivateFolder, PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from './dataDir.ts';

/**
 * Where attachment contents live, by server-made key. Small on purpose, so that an S3-compatible
 * store can implement it next to the local folder.
 */
export interface FileStorage {
  /** Stores a stream under `key` and answers the number of bytes written. */
  put(key: string, content: Readable): Promise<number>;
  /** Reads up to `bytes` bytes from the start (to tell the type from the content). */
  head(key: string, bytes: number): Promise<Buffer>;
  /** A stream of the whole content. */
  read(key: string): Promise<Readable>;
  /** Removes the content; removing a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Releases what the storage holds open (and a throw-away folder). */
  close(): Promise<void>;
}

/** Server-made keys only: never a name a client chose, so no path can escape the folder. */
const KEY = /^[0-9a-f-]{36}$/;

/** Flushes a folder's entries (a new file's name, a new subfolder) to the disk. */
async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Keeps files in a local folder (`DATA_DIR/files`), one file per key. */
export class LocalFileStorage implements FileStorage {
  readonly folder: string;
  readonly #temporary: boolean;

  /** `folder` is created (0700) if missing; `temporary` folders are removed on close (tests). */
  constructor(folder: string, temporary = false) {
    makePrivateFolder(folder);
    this.folder = folder;
    this.#temporary = temporary;
  }

  #path(key: string): string {
    if (!KEY.test(key)) throw new Error(`Not a storage key: ${JSON.stringify(key)}`);
    // Two levels of folders keep any one folder small.
    return path.join(this.folder, key.slice(-2), key);
  }

  /**
   * Writes the file (0600) and flushes it and its folder to the disk before answering, so that an
   * upload that was acknowledged survives a crash or a power cut, as the post naming it does.
   */
  async put(key: string, content: Readable): Promise<number> {
    const file = this.#path(key);
    const folder = path.dirname(file);
    const created = mkdirSync(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
    if (created) await syncFolder(this.folder);
    let size = 0;
    const handle = await open(file, 'wx', PRIVATE_FILE_MODE);
    try {
      try {
        for await (const chunk of content) {
          const bytes: Buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
          for (let at = 0; at < bytes.length; ) at += (await handle.write(bytes, at)).bytesWritten;
          size += bytes.length;
        }
        await handle.sync();
      } finally {
        await handle.close();
      }
      await syncFolder(folder);
    } catch (error) {
      await rm(file, { force: true });
      throw error;
    }
    return size;
  }

  async head(key: string, bytes: number): Promise<Buffer> {
    const handle = await open(this.#path(key), 'r');
    try {
      const buffer = Buffer.alloc(bytes);
      const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }

  async read(key: string): Promise<Readable> {
    const file = this.#path(key);
    await stat(file);
    return createReadStream(file);
  }

  async delete(key: string): Promise<void> {
    await rm(this.#path(key), { force: true });
  }

  async close(): Promise<void> {
    if (this.#temporary) rmSync(this.folder, { recursive: true, force: true });
  }
}

/**
 * The storage of a configuration: `DATA_DIR/files`, or a throw-away folder when the database is
 * in memory (tests).
 */
export function createFileStorage(dataDir: string): FileStorage {
  if (dataDir === ':memory:') {
    return new LocalFileStorage(mkdtempSync(path.join(os.tmpdir(), 'btalk-files-')), true);
  }
  return new LocalFileStorage(path.join(dataDir, 'files'));
}
