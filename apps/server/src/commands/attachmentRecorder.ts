import { Readable } from 'node:stream';
import { UPLOAD_REFUSAL } from '@btalk/contracts';
import { fileTypeFromBuffer } from 'file-type';
import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { AttachmentRow } from '../db/schema.ts';
import { cleanFileName } from '../files/fileNames.ts';
import { extensionOf, refusedTypeError } from '../files/refusedTypes.ts';
import type { FileStorage } from '../files/storage.ts';
import { AppError } from '../http/errors.ts';
import { newId, now } from '../ids.ts';
import {
  bytesLeft,
  bytesOverQuota,
  filesOverQuota,
  type UnpostedUsage,
  type UploadQuota,
} from '../policies/attachment.ts';

/** Types shown inline as images. Anything else (SVG included: it can carry script) is a download. */
const INLINE_IMAGES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif']);

/** One file of a multipart upload, as @fastify/multipart hands it over. */
export interface UploadedPart {
  filename: string;
  file: Readable & { truncated?: boolean };
}

/** Where an upload goes and what bounds it. */
export interface UploadTarget {
  uploaderId: string;
  topicId: string;
  /** Largest file (MAX_UPLOAD_BYTES), to name in the error. */
  maxBytes: number;
  /** Refused file types (extensions, lower case): checked on the name and on the content's type. */
  refusedExtensions: ReadonlySet<string>;
  /** What the uploader already holds unposted, read before the upload. */
  usage: UnpostedUsage;
  quota: UploadQuota;
}

/** Reads a stream to its end without keeping anything, so the request goes on to its next part. */
async function drain(stream: Readable): Promise<void> {
  for await (const _ of stream) {
    // discarded
  }
}

/**
 * Passes the chunks of `source` on until `budget` bytes have gone by; past that it writes nothing
 * more, reads the rest of the part away (so the request goes on) and then fails with `refusal()`:
 * a file over the quota never lands on the disk whole, and what did is removed by `put`.
 */
function capped(source: Readable, budget: number, refusal: () => AppError): Readable {
  return Readable.from(
    (async function* () {
      let seen = 0;
      for await (const chunk of source) {
        const bytes: Buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
        seen += bytes.length;
        if (seen <= budget) yield bytes;
      }
      if (seen > budget) throw refusal();
    })(),
  );
}

/**
 * Stores the files of an upload in the file storage, each under a new server-made key, with a cleaned
 * name and the type its content shows (the name and the browser's claim are not trusted). Stops at
 * the uploader's quota of unposted files and bytes. On any failure it removes every file it wrote
 * and throws; it answers the rows to record with `attachmentRecorder`.
 */
export async function attachmentStorer(
  files: FileStorage,
  parts: AsyncIterable<UploadedPart>,
  target: UploadTarget,
): Promise<AttachmentRow[]> {
  const { usage, quota, maxBytes } = target;
  const rows: AttachmentRow[] = [];
  const written = () => rows.reduce((sum, r) => sum + r.size_bytes, 0);
  try {
    for await (const part of parts) {
      const fileName = cleanFileName(part.filename);
      // Refused by name before a byte is stored.
      const named = extensionOf(fileName);
      if (target.refusedExtensions.has(named)) {
        await drain(part.file);
        throw refusedTypeError(fileName, named);
      }
      // The uploader's holding with what this upload stored so far; the quota is checked before
      // writing: files here, bytes as they stream (`capped`).
      const held = { files: usage.files + rows.length, bytes: usage.bytes + written() };
      if (held.files + 1 > quota.maxUnpostedFiles) {
        await drain(part.file);
        throw filesOverQuota(held, quota);
      }
      const content = capped(part.file, bytesLeft(held, quota), () => bytesOverQuota(held, quota));
      const key = newId();
      const size = await files.put(key, content);
      const row: AttachmentRow = {
        id: newId(),
        topic_id: target.topicId,
        post_id: null,
        uploader_id: target.uploaderId,
        storage_key: key,
        file_name: fileName,
        content_type: 'application/octet-stream',
        size_bytes: size,
        kind: 'file',
        created_at: now(),
      };
      rows.push(row);
      if (part.file.truncated) {
        throw new AppError(
          'tooLarge',
          `${row.file_name} is larger than ${maxBytes} bytes (MAX_UPLOAD_BYTES).`,
          [{ field: 'body.file', reason: UPLOAD_REFUSAL.tooLarge }],
        );
      }
      if (size === 0) {
        throw new AppError('validation', `${row.file_name} is empty.`, [
          { field: 'body.file', reason: UPLOAD_REFUSAL.empty },
        ]);
      }
      const type = await fileTypeFromBuffer(await files.head(key, 4100));
      // Refused by content too: a program renamed to report.pdf is still a program.
      if (type && target.refusedExtensions.has(type.ext)) throw refusedTypeError(fileName, type.ext);
      if (type) row.content_type = type.mime;
      if (type && INLINE_IMAGES.has(type.mime)) row.kind = 'image';
    }
  } catch (error) {
    await attachmentDiscarder(files, rows);
    throw error;
  }
  return rows;
}

/** Removes stored files whose upload failed (before or while they were recorded). */
export async function attachmentDiscarder(files: FileStorage, rows: AttachmentRow[]): Promise<void> {
  await Promise.all(rows.map((r) => files.delete(r.storage_key)));
}

/**
 * Records uploaded files (already in the file storage) as waiting for the uploader's post. The route
 * loads the uploader's usage (`loadUnpostedUsage` with `lock`) and checks the quota again in the same
 * transaction, as uploads of one person may run side by side.
 */
export async function attachmentRecorder(
  trx: Kysely<Database>,
  rows: AttachmentRow[],
): Promise<AttachmentRow[]> {
  if (rows.length === 0) return [];
  await trx.insertInto('attachments').values(rows).execute();
  return rows;
}
