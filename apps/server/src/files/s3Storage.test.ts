import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { S3Client } from '@aws-sdk/client-s3';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { newId } from '../ids.ts';
import { BIG_FILE_BYTES, bigFile, streamText } from '../test/bigFile.ts';
import { freePort } from '../test/listening.ts';
import { type LocalS3, startLocalS3, testS3Config } from '../test/s3.ts';
import { S3_CHECK_TIMEOUT_MS, S3FileStorage, signedDownloadOrigin } from './s3Storage.ts';
import { isMissingFile } from './storage.ts';

/** Records the name of every command an S3 client sends, and how much of the content was read by then. */
function recordCommands(counter: { produced: number } = { produced: 0 }) {
  const sent: { command: string; produced: number }[] = [];
  const original = S3Client.prototype.send;
  vi.spyOn(S3Client.prototype, 'send').mockImplementation(function (this: S3Client, ...args: unknown[]) {
    sent.push({ command: (args[0] as object).constructor.name, produced: counter.produced });
    return (original as (...a: unknown[]) => Promise<unknown>).apply(this, args);
  });
  return sent;
}

describe('S3FileStorage', () => {
  let s3: LocalS3;
  beforeAll(async () => {
    s3 = await startLocalS3({ corsOrigin: 'https://btalk.example.org' });
  });
  afterAll(() => s3.stop());
  afterEach(() => vi.restoreAllMocks());

  it('uploads a big file in parts while it is still being read, and answers after the store acknowledged', async () => {
    const storage = new S3FileStorage(testS3Config(s3));
    try {
      const counter = { produced: 0 };
      const sent = recordCommands(counter);
      const key = newId();
      expect(await storage.put(key, bigFile(counter))).toBe(BIG_FILE_BYTES);
      const names = sent.map((s) => s.command);
      expect(names.filter((n) => n === 'UploadPartCommand')).toHaveLength(3);
      expect(names.at(-1)).toBe('CompleteMultipartUploadCommand');
      // The first part went out before the content was read to its end: no whole file in memory.
      expect(sent.find((s) => s.command === 'UploadPartCommand')!.produced).toBeLessThan(BIG_FILE_BYTES);
      expect(await s3.keys()).toContain(key);
      await storage.delete(key);
      expect(await s3.keys()).not.toContain(key);
    } finally {
      await storage.close();
    }
  });

  it('aborts the multipart upload of content that fails, and fails with the content’s error', async () => {
    const storage = new S3FileStorage(testS3Config(s3));
    try {
      const sent = recordCommands();
      const key = newId();
      await expect(storage.put(key, bigFile({ produced: 0 }, 6 * 1024 * 1024))).rejects.toThrow(
        'the client went away',
      );
      expect(sent.map((s) => s.command)).toContain('AbortMultipartUploadCommand');
      expect(sent.map((s) => s.command)).not.toContain('CompleteMultipartUploadCommand');
      expect(await s3.keys()).not.toContain(key);
    } finally {
      await storage.close();
    }
  });

  it('keeps objects under S3_PREFIX, out of sight of another prefix', async () => {
    const one = new S3FileStorage(testS3Config(s3, { prefix: 'btalk/files' }));
    const other = new S3FileStorage(testS3Config(s3, { prefix: 'elsewhere' }));
    try {
      const key = newId();
      await one.put(key, Readable.from(['under the prefix']));
      expect(await s3.keys()).toContain(`btalk/files/${key}`);
      expect(await streamText(await one.read(key))).toBe('under the prefix');
      await expect(other.read(key)).rejects.toSatisfy(isMissingFile);
      await other.delete(key);
      expect(await s3.keys()).toContain(`btalk/files/${key}`);
      await one.delete(key);
      expect(await s3.keys()).not.toContain(`btalk/files/${key}`);
    } finally {
      await one.close();
      await other.close();
    }
  });

  it('signs downloads for S3_SIGNED_URL_SECONDS with the headers BTalk would send', async () => {
    const config = testS3Config(s3, { prefix: 'signed', signedDownloads: true, signedUrlSeconds: 90 });
    const storage = new S3FileStorage(config);
    try {
      const key = newId();
      await storage.put(key, Readable.from(['a,b\n1,2\n']));
      const disposition = `attachment; filename="report.csv"; filename*=UTF-8''%E0%B8%A3.csv`;
      const address = await storage.downloadUrl(key, {
        contentType: 'application/octet-stream',
        contentDisposition: disposition,
        cacheControl: 'private, max-age=3600',
      });
      const url = new URL(address!);
      expect(url.origin + url.pathname).toBe(`${s3.endpoint}/${s3.bucket}/signed/${key}`);
      expect(url.origin).toBe(signedDownloadOrigin(config));
      expect(url.searchParams.get('X-Amz-Expires')).toBe('90');
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/octet-stream');
      expect(res.headers.get('content-disposition')).toBe(disposition);
      expect(res.headers.get('cache-control')).toBe('private, max-age=3600');
      expect(await res.text()).toBe('a,b\n1,2\n');
    } finally {
      await storage.close();
    }
  });

  it('lets the web app fetch a signed download with the bucket CORS rule of docs/storage.md', async () => {
    const storage = new S3FileStorage(testS3Config(s3, { signedDownloads: true }));
    try {
      const key = newId();
      await storage.put(key, Readable.from(['shown from a blob']));
      const headers = { contentType: 'text/plain', contentDisposition: 'inline', cacheControl: 'private' };
      const url = (await storage.downloadUrl(key, headers))!;
      // The browser's preflight: the web app's fetch carries x-api-key past the redirect.
      const preflight = await fetch(url, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://btalk.example.org',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'x-api-key',
        },
      });
      expect(preflight.status).toBe(200);
      await preflight.arrayBuffer();
      // s3rver answers a matched preflight with *, S3 with the origin: both let the origin in.
      expect(preflight.headers.get('access-control-allow-origin')).toMatch(
        /^(\*|https:\/\/btalk\.example\.org)$/,
      );
      expect(preflight.headers.get('access-control-allow-headers')).toMatch(/x-api-key/i);
      const res = await fetch(url, { headers: { origin: 'https://btalk.example.org', 'x-api-key': 'k' } });
      expect(res.headers.get('access-control-allow-origin')).toBe('https://btalk.example.org');
      expect(await res.text()).toBe('shown from a blob');
      // Another origin is not let in.
      const stranger = await fetch(url, {
        method: 'OPTIONS',
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
      });
      await stranger.arrayBuffer();
      expect(stranger.status).toBe(403);
    } finally {
      await storage.close();
    }
  });

  it('finds the origin of signed downloads as the SDK addresses them, for the CSP', () => {
    const aws = testS3Config(s3, { endpoint: null, forcePathStyle: false, region: 'eu-central-1' });
    expect(signedDownloadOrigin({ ...aws, bucket: 'btalk-files' })).toBe(
      'https://btalk-files.s3.eu-central-1.amazonaws.com',
    );
    expect(
      signedDownloadOrigin(testS3Config({ endpoint: 'https://minio.example.org:9000', bucket: 'b' })),
    ).toBe('https://minio.example.org:9000');
  });

  it('is ready when the bucket answers', async () => {
    const storage = new S3FileStorage(testS3Config(s3));
    try {
      expect(await storage.check()).toEqual({ ok: true });
    } finally {
      await storage.close();
    }
  });

  it('is not ready without the bucket, or with a key the store does not know, and says why', async () => {
    const noBucket = new S3FileStorage(testS3Config(s3, { bucket: 'no-such-bucket' }));
    const strangerKey = new S3FileStorage(
      testS3Config(s3, { credentials: { accessKeyId: 'NOT-S3RVER', secretAccessKey: 'x' } }),
    );
    try {
      expect(await noBucket.check()).toMatchObject({
        ok: false,
        reason: 'the file store (S3) has no such bucket (404)',
      });
      expect(await strangerKey.check()).toMatchObject({
        ok: false,
        reason: "the file store (S3) refused BTalk's credentials or permissions (403)",
      });
    } finally {
      await noBucket.close();
      await strangerKey.close();
    }
  });
});

describe('S3FileStorage with an unreachable store', () => {
  const sockets = new Set<Socket>();
  let silent: Server;
  beforeAll(async () => {
    // Takes connections and never answers: a store behind a black-holing firewall or hung.
    silent = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => {});
    });
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    silent.close();
    await once(silent, 'close');
  });

  it('says that a closed port cannot be reached, naming no address', async () => {
    const port = await freePort();
    const storage = new S3FileStorage(testS3Config({ endpoint: `http://127.0.0.1:${port}`, bucket: 'b' }));
    try {
      const check = await storage.check();
      expect(check).toMatchObject({
        ok: false,
        reason: 'the file store (S3) cannot be reached (ECONNREFUSED)',
      });
      expect(check.ok || check.detail).toMatch(/ECONNREFUSED/);
      expect(check.ok || check.reason).not.toMatch(/127\.0\.0\.1|S3RVER/);
    } finally {
      await storage.close();
    }
  });

  it('gives up on a store that does not answer, and says so', async () => {
    const address = silent.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    const storage = new S3FileStorage(
      testS3Config({ endpoint: `http://127.0.0.1:${address.port}`, bucket: 'b' }),
    );
    try {
      expect(await storage.check()).toMatchObject({
        ok: false,
        reason: `the file store (S3) did not answer within ${S3_CHECK_TIMEOUT_MS / 1000} s`,
      });
      expect(sockets.size).toBeGreaterThan(0);
    } finally {
      await storage.close();
    }
  });
});
