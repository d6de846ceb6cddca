import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3Config } from '../config/s3.ts';
import {
  type DownloadHeaders,
  type FileStorage,
  missingFileError,
  STORAGE_KEY,
  type StorageCheck,
} from './storage.ts';

/** How long the readiness check waits for the store before it calls it unreachable. */
export const S3_CHECK_TIMEOUT_MS = 2000;

/** Bytes of one part of a multipart upload: S3's smallest. */
const PART_BYTES = 5 * 1024 * 1024;

/** Parts of one upload in memory (and on their way) at once: an upload holds at most 10 MiB. */
const PARTS_AT_ONCE = 2;

/**
 * Connections to the store. Each download streamed through BTalk holds one for as long as the
 * browser takes to read it, so the SDK's default of 50 would make the 51st download (and the
 * readiness check) wait.
 */
const MAX_SOCKETS = 512;

/** An SDK error's parts that tell what went wrong. */
interface SdkError {
  name?: string;
  code?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
}

/** Whether the store said that the key holds nothing (not: that the bucket is missing). */
function isNoSuchKey(error: unknown): boolean {
  const e = error as SdkError;
  return e?.name === 'NoSuchKey' || (e?.name === 'NotFound' && e.$metadata?.httpStatusCode === 404);
}

/**
 * Why the store cannot be used, in words safe to show without a key: no address, host name or
 * secret (the SDK's message, which may name them, goes to the log as the detail).
 */
function unreachableReason(error: unknown): string {
  const e = error as SdkError;
  const status = e?.$metadata?.httpStatusCode;
  if (e?.name === 'TimeoutError') {
    return `the file store (S3) did not answer within ${S3_CHECK_TIMEOUT_MS / 1000} s`;
  }
  if (e?.name === 'CredentialsProviderError') {
    return 'the file store (S3) has no credentials: set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY or an AWS role';
  }
  if (status === 403) return "the file store (S3) refused BTalk's credentials or permissions (403)";
  if (status === 404) return 'the file store (S3) has no such bucket (404)';
  if (status === 301) return 'the file store (S3) keeps the bucket in another region than S3_REGION (301)';
  if (status !== undefined) return `the file store (S3) answered ${status} (${e.name ?? 'error'})`;
  const code = e?.code && /^[A-Z_]+$/.test(e.code) ? e.code : (e?.name ?? 'error');
  return `the file store (S3) cannot be reached (${code})`;
}

/**
 * The origin of presigned download addresses, as the SDK resolves it (a bucket's own host name on
 * AWS, the endpoint with the bucket in the path elsewhere): the web app fetches them after the
 * redirect, so the Content-Security-Policy's connect-src must allow it. No request is made.
 */
export function signedDownloadOrigin(config: S3Config): string {
  const client = new S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    forcePathStyle: config.forcePathStyle,
  });
  try {
    const { url } = client.config.endpointProvider({
      Bucket: config.bucket,
      Region: config.region,
      ForcePathStyle: config.forcePathStyle,
      ...(config.endpoint ? { Endpoint: config.endpoint } : {}),
      UseFIPS: false,
      UseDualStack: false,
      Accelerate: false,
    });
    return url.origin;
  } finally {
    client.destroy();
  }
}

/**
 * Keeps attachments in an S3-compatible object store (AWS S3, MinIO, Ceph, Garage) with
 * @aws-sdk/client-s3, one object per key under S3_PREFIX. Uploads stream in parts of 5 MiB (never
 * the whole file in memory); downloads are the object's stream, or a presigned address when
 * S3_SIGNED_DOWNLOADS is set. A missing key fails `head` and `read` as the local folder does (ENOENT).
 */
export class S3FileStorage implements FileStorage {
  readonly #client: S3Client;
  readonly #config: S3Config;

  constructor(config: S3Config) {
    this.#config = config;
    this.#client = new S3Client({
      region: config.region,
      ...(config.endpoint ? { endpoint: config.endpoint } : {}),
      forcePathStyle: config.forcePathStyle,
      // Unset: the SDK's default chain (AWS_* variables, profile, instance or pod role).
      ...(config.credentials ? { credentials: config.credentials } : {}),
      // The SDK's default adds CRC32 checksums in an aws-chunked trailer, which older MinIO, Ceph,
      // Garage and s3rver do not understand; S3 protects the bytes with Content-MD5 and TLS anyway.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      requestHandler: {
        connectionTimeout: 5000,
        httpAgent: new http.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS }),
        httpsAgent: new https.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS }),
      },
    });
  }

  /** The object key of a storage key: server-made keys only, under the prefix. */
  #key(key: string): string {
    if (!STORAGE_KEY.test(key)) throw new Error(`Not a storage key: ${JSON.stringify(key)}`);
    return this.#config.prefix ? `${this.#config.prefix}/${key}` : key;
  }

  /**
   * Streams the content to the store (a single PUT up to 5 MiB, a multipart upload beyond) and
   * answers its size once the store has acknowledged the whole object. A failed upload leaves no
   * object (a multipart upload is aborted), and the error is the one that stopped it (the
   * content's own, such as a quota refusal), not the abort's.
   */
  async put(key: string, content: Readable): Promise<number> {
    let size = 0;
    const counted = Readable.from(
      (async function* () {
        for await (const chunk of content) {
          const bytes: Buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
          size += bytes.length;
          yield bytes;
        }
      })(),
    );
    const target = { Bucket: this.#config.bucket, Key: this.#key(key) };
    const upload = new Upload({
      client: this.#client,
      params: { ...target, Body: counted, ContentType: 'application/octet-stream' },
      partSize: PART_BYTES,
      queueSize: PARTS_AT_ONCE,
      // Aborted below, so that a failed abort does not hide why the upload failed.
      leavePartsOnError: true,
    });
    try {
      await upload.done();
    } catch (error) {
      if (upload.uploadId) {
        // Parts an abort could not remove are never an object; a lifecycle rule clears them (docs/storage.md).
        await this.#client
          .send(new AbortMultipartUploadCommand({ ...target, UploadId: upload.uploadId }))
          .catch(() => {});
      }
      throw error;
    }
    return size;
  }

  /** A ranged GET of the first `bytes` bytes. */
  async head(key: string, bytes: number): Promise<Buffer> {
    const last = Math.max(bytes, 1) - 1;
    try {
      const answer = await this.#client.send(
        new GetObjectCommand({ Bucket: this.#config.bucket, Key: this.#key(key), Range: `bytes=0-${last}` }),
      );
      // An empty object: some stores (s3rver) answer 206 "bytes 0-4099/0" and then no bytes at all.
      if (answer.ContentRange?.endsWith('/0') || answer.ContentLength === 0) {
        (answer.Body as Readable | undefined)?.destroy();
        return Buffer.alloc(0);
      }
      const data = Buffer.from((await answer.Body?.transformToByteArray()) ?? []);
      return data.subarray(0, Math.max(bytes, 0));
    } catch (error) {
      // An empty object has no first byte: S3 answers 416 to any range of it.
      if ((error as SdkError).name === 'InvalidRange') return Buffer.alloc(0);
      throw isNoSuchKey(error) ? missingFileError(key) : error;
    }
  }

  async read(key: string): Promise<Readable> {
    const answer = await this.#client
      .send(new GetObjectCommand({ Bucket: this.#config.bucket, Key: this.#key(key) }))
      .catch((error: unknown) => {
        throw isNoSuchKey(error) ? missingFileError(key) : error;
      });
    if (!(answer.Body instanceof Readable)) throw new Error('The S3 client answered no stream.');
    return answer.Body;
  }

  /**
   * With S3_SIGNED_DOWNLOADS, a presigned GET valid S3_SIGNED_URL_SECONDS that makes the store
   * answer with BTalk's Content-Type, Content-Disposition and Cache-Control; else null.
   */
  async downloadUrl(key: string, headers: DownloadHeaders): Promise<string | null> {
    if (!this.#config.signedDownloads) return null;
    const command = new GetObjectCommand({
      Bucket: this.#config.bucket,
      Key: this.#key(key),
      ResponseContentType: headers.contentType,
      ResponseContentDisposition: headers.contentDisposition,
      ResponseCacheControl: headers.cacheControl,
    });
    return getSignedUrl(this.#client, command, { expiresIn: this.#config.signedUrlSeconds });
  }

  async delete(key: string): Promise<void> {
    await this.#client
      .send(new DeleteObjectCommand({ Bucket: this.#config.bucket, Key: this.#key(key) }))
      .catch((error: unknown) => {
        // S3 answers 204 for a missing key; a store that answers 404 means the same.
        if (!isNoSuchKey(error)) throw error;
      });
  }

  /**
   * HeadBucket within S3_CHECK_TIMEOUT_MS: the store answers, the bucket exists, and the
   * credentials may use it. Never waits longer, whatever the network or the credential chain does.
   */
  async check(): Promise<StorageCheck> {
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        abort.abort();
        reject(
          Object.assign(new Error(`no answer within ${S3_CHECK_TIMEOUT_MS} ms`), { name: 'TimeoutError' }),
        );
      }, S3_CHECK_TIMEOUT_MS);
    });
    try {
      await Promise.race([
        this.#client.send(new HeadBucketCommand({ Bucket: this.#config.bucket }), {
          abortSignal: abort.signal,
        }),
        deadline,
      ]);
      return { ok: true };
    } catch (error) {
      const e = error as SdkError;
      return {
        ok: false,
        reason: unreachableReason(error),
        detail: `${e?.name ?? 'Error'}: ${e?.message ?? String(error)}`,
      };
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    this.#client.destroy();
  }
}
