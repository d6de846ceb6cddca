import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll } from 'vitest';
import type { S3Config } from '../config/s3.ts';

/** The bucket every local S3 has. */
export const TEST_BUCKET = 'btalk-test';

/** s3rver's built-in key pair: it knows this key id (others are refused, 403); V4 signatures it does not check. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/** The bucket CORS rule of docs/storage.md for signed downloads from the web app at `origin`. */
export function signedDownloadCors(origin: string): string {
  return `<CORSConfiguration>
  <CORSRule>
    <AllowedOrigin>${origin}</AllowedOrigin>
    <AllowedMethod>GET</AllowedMethod>
    <AllowedHeader>*</AllowedHeader>
    <MaxAgeSeconds>3600</MaxAgeSeconds>
  </CORSRule>
</CORSConfiguration>`;
}

/** A running S3-protocol server (s3rver) on a free loopback port, with one bucket in a temporary folder. */
export interface LocalS3 {
  /** Its address, e.g. `http://127.0.0.1:41234`. */
  endpoint: string;
  bucket: string;
  /** The S3_* variables that point BTalk at it. */
  env: Record<string, string>;
  /** Every object key in the bucket, sorted (listed through the S3 API, not through BTalk). */
  keys(): Promise<string[]>;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
}

/** Starts a local S3 with the bucket `TEST_BUCKET` (and a CORS rule for `corsOrigin`, if given). */
export async function startLocalS3(options: { corsOrigin?: string } = {}): Promise<LocalS3> {
  const directory = mkdtempSync(path.join(tmpdir(), 'btalk-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [
      {
        name: TEST_BUCKET,
        configs: options.corsOrigin ? [signedDownloadCors(options.corsOrigin)] : [],
      },
    ],
  });
  const address = await server.run();
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    endpoint,
    bucket: TEST_BUCKET,
    env: {
      S3_BUCKET: TEST_BUCKET,
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
    },
    async keys() {
      const client = new S3Client({
        region: 'us-east-1',
        endpoint,
        forcePathStyle: true,
        credentials: S3RVER_CREDENTIALS,
      });
      try {
        const keys: string[] = [];
        let token: string | undefined;
        do {
          const page = await client.send(
            new ListObjectsV2Command({ Bucket: TEST_BUCKET, ContinuationToken: token }),
          );
          keys.push(...(page.Contents ?? []).map((o) => o.Key ?? ''));
          token = page.NextContinuationToken;
        } while (token);
        return keys.sort();
      } finally {
        client.destroy();
      }
    },
    async stop() {
      // Keep-alive connections of clients would hold close() open.
      server.httpServer?.closeAllConnections();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** The configuration of S3FileStorage for `s3`, as loadConfig would make it from `s3.env` (and `changes`). */
export function testS3Config(
  s3: Pick<LocalS3, 'endpoint' | 'bucket'>,
  changes: Partial<S3Config> = {},
): S3Config {
  return {
    bucket: s3.bucket,
    region: 'us-east-1',
    endpoint: s3.endpoint,
    credentials: S3RVER_CREDENTIALS,
    forcePathStyle: true,
    prefix: '',
    signedDownloads: false,
    signedUrlSeconds: 60,
    ...changes,
  };
}

/**
 * A local S3 for the tests of a file or `describe`: started before them, stopped after. Its fields
 * are filled in before the first test runs.
 */
export function useLocalS3(options: { corsOrigin?: string } = {}): LocalS3 {
  const s3 = {} as LocalS3;
  beforeAll(async () => {
    Object.assign(s3, await startLocalS3(options));
  });
  afterAll(async () => {
    await s3.stop?.();
  });
  return s3;
}
