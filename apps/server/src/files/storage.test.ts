import { fstatSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { newId } from '../ids.ts';
import { LocalFileStorage } from './storage.ts';

const root = mkdtempSync(path.join(tmpdir(), 'btalk-storage-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

/** FileHandle is not exported as a class: take its prototype from an open handle. */
async function fileHandlePrototype(): Promise<FileHandle> {
  const handle = await open(root, 'r');
  await handle.close();
  return Object.getPrototypeOf(handle) as FileHandle;
}

describe('the local file storage', () => {
  it('keeps attachments 0600 in folders 0700', async () => {
    const storage = new LocalFileStorage(path.join(root, 'modes', 'files'));
    const key = newId();
    expect(await storage.put(key, Readable.from([Buffer.from('secret report')]))).toBe(13);
    const file = path.join(storage.folder, key.slice(-2), key);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(statSync(storage.folder).mode & 0o777).toBe(0o700);
  });

  it('flushes the file and its folder to the disk before the upload is acknowledged', async () => {
    const storage = new LocalFileStorage(path.join(root, 'sync', 'files'));
    const prototype = await fileHandlePrototype();
    const original = prototype.sync;
    // What each sync() flushed, by inode, at the moment it was called.
    const synced: number[] = [];
    vi.spyOn(prototype, 'sync').mockImplementation(function (this: FileHandle) {
      synced.push(fstatSync(this.fd).ino);
      return original.call(this);
    });
    const key = newId();
    const content = Buffer.alloc(3 * 1024 * 1024, 1);
    await storage.put(key, Readable.from([content.subarray(0, 1024 * 1024), content.subarray(1024 * 1024)]));
    const file = path.join(storage.folder, key.slice(-2), key);
    expect(statSync(file).size).toBe(content.length);
    expect(synced).toContain(statSync(file).ino);
    expect(synced).toContain(statSync(path.dirname(file)).ino);
    // The file's data first, then the folder entry that names it.
    expect(synced.indexOf(statSync(file).ino)).toBeLessThan(
      synced.lastIndexOf(statSync(path.dirname(file)).ino),
    );
  });

  it('leaves nothing behind when the upload fails half-way', async () => {
    const storage = new LocalFileStorage(path.join(root, 'failed', 'files'));
    const key = newId();
    const broken = new Readable({
      read() {
        this.push(Buffer.from('half'));
        this.destroy(new Error('the client went away'));
      },
    });
    await expect(storage.put(key, broken)).rejects.toThrow('the client went away');
    await expect(storage.head(key, 4)).rejects.toThrow(/ENOENT/);
  });

  it('is not ready when its folder is gone, and says why without the path', async () => {
    const storage = new LocalFileStorage(path.join(root, 'gone', 'files'));
    expect(await storage.check()).toEqual({ ok: true });
    rmSync(path.join(root, 'gone'), { recursive: true, force: true });
    const check = await storage.check();
    expect(check).toMatchObject({
      ok: false,
      reason: 'the file store (DATA_DIR/files) cannot be written (ENOENT)',
    });
    expect(check.ok || check.reason).not.toContain(root);
    expect(check.ok || check.detail).toContain(root);
  });
});
