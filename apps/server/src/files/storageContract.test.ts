import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../ids.ts';
import {
  BIG_FILE_BYTES,
  bigFile,
  bigFileByteAt,
  bigFileDigest,
  digest,
  streamText,
} from '../test/bigFile.ts';
import { startLocalS3, testS3Config } from '../test/s3.ts';
import { S3FileStorage } from './s3Storage.ts';
import { type FileStorage, isMissingFile, LocalFileStorage } from './storage.ts';

/** One storage under test, made fresh for its suite. */
interface Subject {
  name: string;
  open(): Promise<{ storage: FileStorage; close(): Promise<void> }>;
}

const subjects: Subject[] = [
  {
    name: 'LocalFileStorage',
    async open() {
      const folder = mkdtempSync(path.join(tmpdir(), 'btalk-contract-'));
      const storage = new LocalFileStorage(path.join(folder, 'files'));
      return {
        storage,
        async close() {
          await storage.close();
          rmSync(folder, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'S3FileStorage (s3rver)',
    async open() {
      const s3 = await startLocalS3();
      const storage = new S3FileStorage(testS3Config(s3));
      return {
        storage,
        async close() {
          await storage.close();
          await s3.stop();
        },
      };
    },
  },
];

for (const subject of subjects) {
  describe(`the FileStorage contract: ${subject.name}`, () => {
    let storage: FileStorage;
    let close = async () => {};
    beforeAll(async () => {
      ({ storage, close } = await subject.open());
    });
    afterAll(() => close());

    it('stores, answers the size, reads the first bytes and the whole, and deletes', async () => {
      const key = newId();
      const content = 'สวัสดี, a report of the night shift';
      expect(
        await storage.put(key, Readable.from([Buffer.from(content.slice(0, 5)), content.slice(5)])),
      ).toBe(Buffer.byteLength(content));
      expect((await storage.head(key, 6)).toString('latin1')).toBe(
        Buffer.from(content).subarray(0, 6).toString('latin1'),
      );
      // Asking for more than there is answers what there is.
      expect((await storage.head(key, 4100)).toString()).toBe(content);
      expect(await streamText(await storage.read(key))).toBe(content);
      await storage.delete(key);
      await expect(storage.read(key)).rejects.toSatisfy(isMissingFile);
    });

    it('fails head and read of a missing key as a missing file (ENOENT), and deletes it quietly', async () => {
      const key = newId();
      await expect(storage.head(key, 10)).rejects.toSatisfy(isMissingFile);
      await expect(storage.read(key)).rejects.toSatisfy(isMissingFile);
      await expect(storage.read(key)).rejects.toMatchObject({ code: 'ENOENT' });
      await expect(storage.delete(key)).resolves.toBeUndefined();
    });

    it('keeps an empty file', async () => {
      const key = newId();
      expect(await storage.put(key, Readable.from([]))).toBe(0);
      expect((await storage.head(key, 4100)).length).toBe(0);
      expect(await streamText(await storage.read(key))).toBe('');
      await storage.delete(key);
    });

    it('refuses a key it did not make', async () => {
      await expect(storage.put('../../etc/passwd', Readable.from(['x']))).rejects.toThrow(
        /Not a storage key/,
      );
      await expect(storage.read('a/b')).rejects.toThrow(/Not a storage key/);
    });

    it('streams a big file in and out whole', async () => {
      const key = newId();
      const counter = { produced: 0 };
      expect(await storage.put(key, bigFile(counter))).toBe(BIG_FILE_BYTES);
      expect(await digest(await storage.read(key))).toEqual(await bigFileDigest());
      const head = await storage.head(key, 4100);
      expect([...head.subarray(4090)]).toEqual([...Array(10).keys()].map((i) => bigFileByteAt(4090 + i)));
      await storage.delete(key);
    });

    it('leaves nothing behind when the content fails half-way, and fails with its error', async () => {
      const key = newId();
      // Past the first 5 MiB part: an S3 multipart upload has begun and must be aborted.
      await expect(storage.put(key, bigFile({ produced: 0 }, 7 * 1024 * 1024))).rejects.toThrow(
        'the client went away',
      );
      await expect(storage.head(key, 4)).rejects.toSatisfy(isMissingFile);
    });

    it('is ready', async () => {
      expect(await storage.check()).toEqual({ ok: true });
    });

    it('serves downloads itself unless told otherwise', async () => {
      const headers = { contentType: 'image/png', contentDisposition: 'inline', cacheControl: 'private' };
      expect(await storage.downloadUrl(newId(), headers)).toBeNull();
    });
  });
}
