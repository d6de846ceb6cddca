import path from 'node:path';
import { AttachmentParams, okEnvelope, TopicParams, UploadAttachmentsResponse } from '@btalk/contracts';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { fileTypeFromBuffer } from 'file-type';
import { authenticate } from '../../auth/authenticate.ts';
import { attachmentRecorder } from '../../commands/attachmentRecorder.ts';
import { transact } from '../../commands/transact.ts';
import type { AppContext } from '../../context.ts';
import type { AttachmentRow } from '../../db/schema.ts';
import { ok } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { newId, now } from '../../ids.ts';
import { authorize, loadTopicAccess, requireVisibleTopic, topicAbilities } from '../../policies/topic.ts';
import { presentAttachment } from '../../presenters/attachment.ts';

/** Types shown inline as images. Anything else (SVG included: it can carry script) is a download. */
const INLINE_IMAGES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif']);

/** A file name safe to echo in Content-Disposition: no folders, no control characters, not empty. */
export function cleanFileName(name: string): string {
  const base = path
    .basename(name.replaceAll('\\', '/'))
    .replace(/[\p{Cc}"]/gu, '')
    .trim()
    .slice(0, 200);
  return base || 'file';
}

function contentDisposition(kind: 'inline' | 'attachment', fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/**
 * Attachments: upload (multipart, through the web client's `postForm`) into a topic, to reference
 * from a new post; and download, only for people who can see the topic (404 for everyone else).
 */
export function attachmentRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { maxBytes, maxFiles } = ctx.config.uploads;
  return async (app) => {
    await app.register(fastifyMultipart, {
      limits: { fileSize: maxBytes, files: maxFiles, fields: 0, parts: maxFiles },
    });
    app.addHook('onRequest', authenticate(ctx));

    app.post(
      '/topics/:topicId/attachments',
      {
        schema: {
          summary: `Upload files (multipart/form-data, up to ${maxFiles} files per request) for a new post`,
          params: TopicParams,
          consumes: ['multipart/form-data'],
          response: { 200: okEnvelope(UploadAttachmentsResponse) },
        },
      },
      async (request) => {
        const { user } = request;
        const access = await requireVisibleTopic(ctx.db.kysely, user, request.params.topicId);
        authorize(topicAbilities(user, access).post, 'This topic is archived: it takes no new files.');
        if (!request.isMultipart()) {
          throw new AppError('validation', 'Send the files as multipart/form-data.', [
            { field: 'headers.content-type', reason: 'must be multipart/form-data' },
          ]);
        }
        const rows: AttachmentRow[] = [];
        const discard = () => Promise.all(rows.map((r) => ctx.files.delete(r.storage_key)));
        try {
          for await (const part of request.files()) {
            const key = newId();
            const size = await ctx.files.put(key, part.file);
            const row: AttachmentRow = {
              id: newId(),
              topic_id: access.topic.id,
              post_id: null,
              uploader_id: user.id,
              storage_key: key,
              file_name: cleanFileName(part.filename),
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
              );
            }
            if (size === 0) {
              throw new AppError('validation', `${row.file_name} is empty.`, [
                { field: 'body.file', reason: 'is empty' },
              ]);
            }
            // The type comes from the content: the name and the browser's claim are not trusted.
            const type = await fileTypeFromBuffer(await ctx.files.head(key, 4100));
            if (type) row.content_type = type.mime;
            if (type && INLINE_IMAGES.has(type.mime)) row.kind = 'image';
          }
        } catch (error) {
          await discard();
          if (error instanceof AppError) throw error;
          const code = (error as { code?: string }).code;
          if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') {
            throw new AppError('tooLarge', `Send at most ${maxFiles} files at once (MAX_UPLOAD_FILES).`);
          }
          if (code === 'FST_FIELDS_LIMIT') {
            throw new AppError('validation', 'Send only files in this form.', [
              { field: 'body', reason: 'has a field that is not a file' },
            ]);
          }
          throw error;
        }
        if (rows.length === 0) {
          throw new AppError('validation', 'Attach at least one file.', [
            { field: 'body.file', reason: 'is required' },
          ]);
        }
        try {
          await transact(ctx, (trx) => attachmentRecorder(trx, rows));
        } catch (error) {
          await discard();
          throw error;
        }
        return ok({ attachments: rows.map(presentAttachment) });
      },
    );

    app.get(
      '/attachments/:attachmentId',
      {
        schema: {
          summary: 'The content of an attachment (images inline, other files as downloads)',
          params: AttachmentParams,
        },
      },
      async (request, reply) => {
        const { user } = request;
        const row = await ctx.db.kysely
          .selectFrom('attachments')
          .selectAll()
          .where('id', '=', request.params.attachmentId)
          .executeTakeFirst();
        const access = row ? await loadTopicAccess(ctx.db.kysely, user, row.topic_id) : null;
        // A file not yet in a post is its uploader's alone.
        if (!row || !access || (row.post_id === null && row.uploader_id !== user.id)) {
          throw new AppError('notFound', 'No such file, or its topic is only for its members.');
        }
        const stream = await ctx.files.read(row.storage_key);
        const inline = row.kind === 'image';
        return reply
          .header('content-type', inline ? row.content_type : 'application/octet-stream')
          .header('content-length', String(row.size_bytes))
          .header('content-disposition', contentDisposition(inline ? 'inline' : 'attachment', row.file_name))
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'; sandbox")
          .header('cache-control', 'private, max-age=3600')
          .send(stream);
      },
    );
  };
}
