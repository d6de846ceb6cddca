import {
  AttachmentParams,
  okEnvelope,
  TopicParams,
  UPLOAD_REFUSAL,
  UploadAttachmentsResponse,
} from '@btalk/contracts';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authenticate } from '../../auth/authenticate.ts';
import {
  attachmentDiscarder,
  attachmentRecorder,
  attachmentStorer,
} from '../../commands/attachmentRecorder.ts';
import { transact } from '../../commands/transact.ts';
import type { AppContext } from '../../context.ts';
import { loadRefusedTypes } from '../../files/refusedTypes.ts';
import { isMissingFile } from '../../files/storage.ts';
import { ok } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { limitWrites, perPerson } from '../../http/rateLimits.ts';
import {
  authorize,
  authorizeQuota,
  loadAttachmentAccess,
  loadUnpostedUsage,
} from '../../policies/attachment.ts';
import { loadTopicAccess } from '../../policies/topic.ts';
import { attachmentContentHeaders, presentAttachment } from '../../presenters/attachment.ts';

/** Multipart errors of @fastify/multipart that the client caused, as envelope errors. */
function multipartError(error: unknown, maxFiles: number): unknown {
  const code = (error as { code?: string }).code;
  if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') {
    return new AppError('tooLarge', `Send at most ${maxFiles} files at once (MAX_UPLOAD_FILES).`, [
      { field: 'body.file', reason: UPLOAD_REFUSAL.tooMany },
    ]);
  }
  if (code === 'FST_FIELDS_LIMIT') {
    return new AppError('validation', 'Send only files in this form.', [
      { field: 'body', reason: 'has a field that is not a file' },
    ]);
  }
  return error;
}

/**
 * Attachments: upload (multipart, through the web client's `postForm`) into a topic, to reference
 * from a new post; and download: a file not yet in a post only for its uploader, a posted one for
 * people who can see the topic (404 for everyone else). Rules in `policies/attachment.ts`, storing
 * and recording in `commands/attachmentRecorder.ts`, shapes and headers in `presenters/attachment.ts`.
 */
export function attachmentRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { maxBytes, maxFiles, maxUnpostedFiles, maxUnpostedBytes, unpostedTtlHours } = ctx.config.uploads;
  const quota = { maxUnpostedFiles, maxUnpostedBytes, unpostedTtlHours };
  return async (app) => {
    await app.register(fastifyMultipart, {
      limits: { fileSize: maxBytes, files: maxFiles, fields: 0, parts: maxFiles },
    });
    app.addHook('onRequest', authenticate(ctx));
    limitWrites(app, perPerson(ctx.config.rateLimits.uploadsPerMinute, 'uploads'));

    app.post(
      '/topics/:topicId/attachments',
      {
        schema: {
          summary:
            `Upload files (multipart/form-data, up to ${maxFiles} files per request) for a new post; ` +
            `a person holds at most ${maxUnpostedFiles} files and ${maxUnpostedBytes} bytes not yet in a post (409 beyond)`,
          params: TopicParams,
          consumes: ['multipart/form-data'],
          response: { 200: okEnvelope(UploadAttachmentsResponse) },
        },
      },
      async (request) => {
        const { user } = request;
        if (!request.isMultipart()) {
          throw new AppError('validation', 'Send the files as multipart/form-data.', [
            { field: 'headers.content-type', reason: 'must be multipart/form-data' },
          ]);
        }
        const db = ctx.db.kysely;
        const access = await loadTopicAccess(db, user, request.params.topicId);
        authorize(user, 'upload', { access });
        const usage = await loadUnpostedUsage(db, user.id);
        const refused = await loadRefusedTypes(db, ctx.config);
        // A person whose quota is full is refused before a byte of the body is stored.
        authorizeQuota(usage, { files: 1, bytes: 0 }, quota);
        // The files are stored before the transaction (a slow upload holds no transaction open);
        // the transaction then checks the quota again, as one person's uploads may run side by side.
        const rows = await attachmentStorer(ctx.files, request.files(), {
          uploaderId: user.id,
          topicId: access!.topic.id,
          maxBytes,
          refusedExtensions: new Set(refused.extensions),
          usage,
          quota,
        }).catch((error: unknown) => {
          throw multipartError(error, maxFiles);
        });
        if (rows.length === 0) {
          throw new AppError('validation', 'Attach at least one file.', [
            { field: 'body.file', reason: 'is required' },
          ]);
        }
        const adding = { files: rows.length, bytes: rows.reduce((sum, r) => sum + r.size_bytes, 0) };
        try {
          await transact(ctx, async (trx) => {
            authorizeQuota(await loadUnpostedUsage(trx, user.id, { lock: true }), adding, quota);
            await attachmentRecorder(trx, rows);
          });
        } catch (error) {
          await attachmentDiscarder(ctx.files, rows);
          throw error;
        }
        return ok({ attachments: rows.map(presentAttachment) });
      },
    );

    app.get(
      '/attachments/:attachmentId',
      {
        schema: {
          summary:
            'The content of an attachment (images inline, other files as downloads); with S3_SIGNED_DOWNLOADS ' +
            'a 302 to a short-lived address of the object store',
          params: AttachmentParams,
        },
      },
      async (request, reply) => {
        const { user } = request;
        const target = await loadAttachmentAccess(ctx.db.kysely, user, request.params.attachmentId);
        authorize(user, 'download', target);
        const row = target.attachment!;
        const headers = attachmentContentHeaders(row);
        // S3_SIGNED_DOWNLOADS: the store sends the bytes itself, with the same headers, for a short while.
        const signed = await ctx.files.downloadUrl(row.storage_key, {
          contentType: headers['content-type'],
          contentDisposition: headers['content-disposition'],
          cacheControl: headers['cache-control'],
        });
        if (signed) return reply.code(302).headers({ location: signed, 'cache-control': 'no-store' }).send();
        const stream = await ctx.files.read(row.storage_key).catch((error: unknown) => {
          // The row outlived its file (a clean-up between the two reads): as good as gone.
          if (isMissingFile(error)) {
            throw new AppError('notFound', 'No such file, or its topic is only for its members.');
          }
          throw error;
        });
        return reply.headers(headers).send(stream);
      },
    );
  };
}
