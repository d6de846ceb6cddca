import { UPLOAD_REFUSAL } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import { isPostgres } from '../db/engine.ts';
import type { Database } from '../db/index.ts';
import type { AttachmentRow } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { loadTopicAccess, type TopicAccess, topicAbilities, type Viewer } from './topic.ts';

/*
 * Who may do what with attachments, as plain rules:
 * - whoever may post in a topic (sees it, and it is not archived) uploads files into it;
 * - a file not yet in a post is its uploader's alone;
 * - a file in a post is seen by whoever may see the post's topic;
 * - anyone else learns nothing: 404, as if the file did not exist;
 * - a person holds at most `maxUnpostedFiles` files and `maxUnpostedBytes` bytes not yet in a post.
 */

/** What a person does with attachments. */
export type AttachmentAction = 'upload' | 'download';

/** An attachment and the person's access to its topic (null when the topic is hidden from them). */
export interface AttachmentAccess {
  attachment: AttachmentRow | undefined;
  access: TopicAccess | null;
}

/** Loads an attachment and the person's access to its topic; either may be missing. */
export async function loadAttachmentAccess(
  db: Kysely<Database>,
  viewer: Viewer,
  attachmentId: string,
): Promise<AttachmentAccess> {
  const attachment = await db
    .selectFrom('attachments')
    .selectAll()
    .where('id', '=', attachmentId)
    .executeTakeFirst();
  const access = attachment ? await loadTopicAccess(db, viewer, attachment.topic_id) : null;
  return { attachment, access };
}

/** Whether the person may upload into a topic they can see, or download an attachment. */
export function can(
  viewer: Viewer,
  action: AttachmentAction,
  { attachment, access }: { attachment?: AttachmentRow | undefined; access: TopicAccess | null },
): boolean {
  if (!access) return false;
  switch (action) {
    case 'upload':
      return topicAbilities(viewer, access).post;
    case 'download':
      return (
        attachment !== undefined && (attachment.post_id !== null || attachment.uploader_id === viewer.id)
      );
  }
}

/** Throws 404 when the topic or file is hidden or missing, 403 when an archived topic takes no uploads. */
export function authorize(
  viewer: Viewer,
  action: AttachmentAction,
  target: { attachment?: AttachmentRow | undefined; access: TopicAccess | null },
): void {
  if (can(viewer, action, target)) return;
  if (action === 'download') {
    throw new AppError('notFound', 'No such file, or its topic is only for its members.');
  }
  if (!target.access) throw new AppError('notFound', 'No such topic, or it is only for its members.');
  throw new AppError('forbidden', 'This topic is archived: it takes no new files.');
}

/** What a person holds uploaded but not yet in a post. */
export interface UnpostedUsage {
  files: number;
  bytes: number;
}

/** The quota of files not yet in a post (UPLOAD_MAX_UNPOSTED_FILES, UPLOAD_MAX_UNPOSTED_BYTES). */
export interface UploadQuota {
  maxUnpostedFiles: number;
  maxUnpostedBytes: number;
  /** Hours after which unposted files are removed (UPLOAD_UNPOSTED_TTL_HOURS), to say so. */
  unpostedTtlHours: number;
}

/**
 * Sums the files and bytes the person has uploaded that no post holds yet. With `lock` (inside the
 * transaction that records an upload) the person's row is locked first on PostgreSQL, so two uploads
 * of one person at once are counted one after the other; SQLite has one writer at a time anyway.
 */
export async function loadUnpostedUsage(
  db: Kysely<Database>,
  uploaderId: string,
  { lock = false }: { lock?: boolean } = {},
): Promise<UnpostedUsage> {
  if (lock && isPostgres(db)) {
    await db.selectFrom('users').select('id').where('id', '=', uploaderId).forUpdate().execute();
  }
  const row = await db
    .selectFrom('attachments')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('files'),
      eb.fn.sum<number | string>('size_bytes').as('bytes'),
    ])
    .where('uploader_id', '=', uploaderId)
    .where('post_id', 'is', null)
    .executeTakeFirstOrThrow();
  return { files: Number(row.files), bytes: Number(row.bytes ?? 0) };
}

/** Bytes the person may still upload before their quota is reached (0 or more). */
export function bytesLeft(usage: UnpostedUsage, quota: UploadQuota): number {
  return Math.max(0, quota.maxUnpostedBytes - usage.bytes);
}

/** How to free room, in every quota refusal. */
function makeRoom(quota: UploadQuota): string {
  return `To make room, post the files you uploaded, or wait: files not in a post are deleted ${quota.unpostedTtlHours} hours after their upload.`;
}

/** The 409 of a person who would hold more than `maxUnpostedFiles` files not yet in a post. */
export function filesOverQuota(usage: UnpostedUsage, quota: UploadQuota): AppError {
  return new AppError(
    'quotaExceeded',
    `You have ${usage.files} uploaded files not yet in a post; at most ${quota.maxUnpostedFiles} are kept (UPLOAD_MAX_UNPOSTED_FILES). ${makeRoom(quota)}`,
    [{ field: 'body.file', reason: UPLOAD_REFUSAL.unpostedFiles }],
  );
}

/** The 409 of a person who would hold more than `maxUnpostedBytes` bytes not yet in a post. */
export function bytesOverQuota(usage: UnpostedUsage, quota: UploadQuota): AppError {
  return new AppError(
    'quotaExceeded',
    `Your uploaded files not yet in a post would take more than ${quota.maxUnpostedBytes} bytes (UPLOAD_MAX_UNPOSTED_BYTES); ${usage.bytes} are taken. ${makeRoom(quota)}`,
    [{ field: 'body.file', reason: UPLOAD_REFUSAL.unpostedBytes }],
  );
}

/**
 * Throws 409 (`quotaExceeded`) when `usage` plus `adding` would pass the person's quota, saying
 * which limit and how to make room.
 */
export function authorizeQuota(usage: UnpostedUsage, adding: UnpostedUsage, quota: UploadQuota): void {
  if (usage.files + adding.files > quota.maxUnpostedFiles) throw filesOverQuota(usage, quota);
  if (usage.bytes + adding.bytes > quota.maxUnpostedBytes) throw bytesOverQuota(usage, quota);
}
