import { constants, createReadStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { access, open, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Config } from '../config/index.ts';
import { makePrivateFolder, PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE, syncToDisk } from './dataDir.ts';
import { S3FileStorage } from './s3Storage.ts';

/** Whether the storage can be used now, and if not why (`reason` is safe to show; `detail` for the log). */
export type StorageCheck = { ok: true } | { ok: false; reason: string; detail: string };

/** The headers a download is served with, for a store that hands out its own download addresses. */
export interface DownloadHeaders {
  contentType: string;
  contentDisposition: string;
  cacheControl: string;
}

/**
 * Where attachment contents live, by server-made key: the local folder (`LocalFileStorage`) or an
 * S3-compatible object store (`S3FileStorage`), behind the same methods. A missing key fails `head`
 * and `read` with an error whose `code` is `ENOENT` (`isMissingFile`), whichever the storage.
 */
export interface FileStorage {
  /** Stores a stream under `key` and answers the number of bytes written, once they are durable. */
  put(key: string, content: Readable): Promise<number>;
  /** Reads up to `bytes` bytes from the start (to tell the type from the content). */
  head(key: string, bytes: number): Promise<Buffer>;
  /** A stream of the whole content. */
  read(key: string): Promise<Readable>;
  /**
   * An address the browser may fetch the content from itself, valid for a short while and carrying
   * `headers`; null when downloads go through BTalk (the local folder, or S3_SIGNED_DOWNLOADS unset).
   */
  downloadUrl(key: string, headers: DownloadHeaders): Promise<string | null>;
  /** Removes the content; removing a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Whether the storage can be reached and written now (`/api/ready`), answered within a few seconds. */
  check(): Promise<StorageCheck>;
  /** Releases what the storage holds open (and a throw-away folder). */
  close(): Promise<void>;
}

/** Server-made keys only: never a name a client chose, so no path can escape the folder. */
export const STORAGE_KEY = /^[0-9a-f-]{36}$/;

/** The error of a key that holds nothing: `code` ENOENT, as the local folder's own. */
export function missingFileError(key: string): Error {
  return Object.assign(new Error(`ENOENT: no stored file under ${key}`), { code: 'ENOENT' });
}

/** Whether `error` says that the key holds nothing (either storage). */
export function isMissingFile(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ENOENT';
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
    if (!STORAGE_KEY.test(key)) throw new Error(`Not a storage key: ${JSON.stringify(key)}`);
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
    if (created) await syncToDisk(this.folder);
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
      await syncToDisk(folder);
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

  /** Downloads of the local folder always go through BTalk. */
  async downloadUrl(): Promise<null> {
    return null;
  }

  async delete(key: string): Promise<void> {
    await rm(this.#path(key), { force: true });
  }

  /** The folder is there and this process may write into it. */
  async check(): Promise<StorageCheck> {
    try {
      await access(this.folder, constants.W_OK | constants.X_OK);
      return { ok: true };
    } catch (error) {
      const code = (error as { code?: string }).code ?? 'error';
      return {
        ok: false,
        reason: `the file store (DATA_DIR/files) cannot be written (${code})`,
        detail: error instanceof Error ? error.message : String(error),
      };
    }
  }

  async close(): Promise<void> {
    if (this.#temporary) rmSync(this.folder, { recursive: true, force: true });
  }
}

/**
 * The storage of a configuration: the S3-compatible store when S3_BUCKET is set, else
 * `DATA_DIR/files`, or a throw-away folder when the database is in memory (tests).
 */
export function createFileStorage(config: Pick<Config, 'dataDir' | 's3'>): FileStorage {
  if (config.s3) return new S3FileStorage(config.s3);
  if (config.dataDir === ':memory:') {
    return new LocalFileStorage(mkdtempSync(path.join(os.tmpdir(), 'btalk-files-')), true);
  }
  return new LocalFileStorage(path.join(config.dataDir, 'files'));
}
