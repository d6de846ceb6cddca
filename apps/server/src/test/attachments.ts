import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { LocalFileStorage } from '../files/storage.ts';
import { newId } from '../ids.ts';
import type { TestServer } from './server.ts';
import type { SignedIn } from './session.ts';
import { dataOf } from './topics.ts';

/** A 1x1 PNG. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** A file to upload: its name as the browser sends it, and its content. */
export interface UploadFile {
  name: string;
  content: Buffer;
  type?: string;
}

/** An attachment as the API answers it. */
export interface AttachmentData {
  id: string;
  fileName: string;
  contentType: string;
  kind: string;
  sizeBytes: number;
  url: string;
}

/** A multipart/form-data body with one `file` part per file (names sent as UTF-8, as browsers do). */
export function multipart(files: UploadFile[]) {
  const boundary = `----btalk${newId()}`;
  const parts = files.map((f) =>
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${f.name}"\r\n` +
          `Content-Type: ${f.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      f.content,
      Buffer.from('\r\n'),
    ]),
  );
  return {
    payload: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** Uploads files into a topic as `who` (null: without a session). */
export function upload(
  server: TestServer,
  who: SignedIn | null,
  topicId: string,
  files: UploadFile[],
): Promise<LightMyRequestResponse> {
  const body = multipart(files);
  return server.request({
    method: 'POST',
    url: `/api/topics/${topicId}/attachments`,
    payload: body.payload,
    headers: { ...body.headers, ...(who?.headers ?? {}) },
  });
}

/** Uploads files and answers the attachments (fails unless the upload answered 200). */
export async function uploaded(
  server: TestServer,
  who: SignedIn,
  topicId: string,
  files: UploadFile[],
): Promise<AttachmentData[]> {
  return dataOf<{ attachments: AttachmentData[] }>(await upload(server, who, topicId, files)).attachments;
}

/** The storage keys of every file in the test server's file storage folder (what is on the disk). */
export function storedKeys(server: TestServer): string[] {
  const storage = server.ctx.files;
  if (!(storage instanceof LocalFileStorage)) throw new Error('The test server stores files locally.');
  return readdirSync(storage.folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.basename(entry.name));
}

/**
 * The storage keys of every stored file, whichever the storage: the local folder, or the objects of
 * the test server's local S3 (`useTestServer(kind, env, { s3: true })`) without S3_PREFIX.
 */
export async function storedFileKeys(server: TestServer): Promise<string[]> {
  if (!server.s3) return storedKeys(server);
  const prefix = server.ctx.config.s3?.prefix;
  return (await server.s3.keys()).map((key) => (prefix ? key.slice(prefix.length + 1) : key));
}
