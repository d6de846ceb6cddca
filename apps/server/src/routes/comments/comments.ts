import {
  CommentPage,
  CommentParams,
  Comment as CommentSchema,
  CreateCommentRequest,
  okEnvelope,
  PageQuery,
  PostParams,
  PostRevisionList,
  UpdateCommentRequest,
} from '@btalk/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { authenticate } from '../../auth/authenticate.ts';
import { commentCreator, commentDeleter, commentEditor } from '../../commands/commentCreator.ts';
import { retryOnUniqueViolation } from '../../commands/idempotency.ts';
import { transact } from '../../commands/transact.ts';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/index.ts';
import type { UserRow } from '../../db/schema.ts';
import { type CursorValues, decodeCursor, pageOf } from '../../http/cursor.ts';
import { ok } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { limitWrites, perPerson } from '../../http/rateLimits.ts';
import { authorize, requireVisibleComment, requireVisiblePost } from '../../policies/post.ts';
import { presentComments } from '../../presenters/post.ts';
import { presentCommentRevisions } from '../../presenters/postRevision.ts';

async function loadCommentView(db: Kysely<Database>, user: UserRow, commentId: string) {
  const { access, post, comment } = await requireVisibleComment(db, user, commentId);
  const [view] = await presentComments(db, user, access, post, [comment]);
  return view!;
}

/** Comments: one level of replies under a post. */
export function commentRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', authenticate(ctx));
    limitWrites(app, perPerson(ctx.config.rateLimits.writesPerMinute, 'writes'));

    app.get(
      '/posts/:postId/comments',
      {
        schema: {
          summary: 'Comments on a post, newest first',
          params: PostParams,
          querystring: PageQuery,
          response: { 200: okEnvelope(CommentPage) },
        },
      },
      async (request) => {
        const { user } = request;
        const db = ctx.db.kysely;
        const { access, post } = await requireVisiblePost(db, user, request.params.postId);
        const after = decodeCursor<[string]>(request.query.cursor, ['string']);
        // Ids are UUIDv7: their order is the order comments were written in.
        let query = db.selectFrom('comments').selectAll().where('post_id', '=', post.id);
        if (after) query = query.where('id', '<', after[0]);
        const rows = await query
          .orderBy('id', 'desc')
          .limit(request.query.limit + 1)
          .execute();
        return ok(
          await pageOf(
            rows,
            request.query.limit,
            (r): CursorValues => [r.id],
            (kept) => presentComments(db, user, access, post, kept),
          ),
        );
      },
    );

    app.post(
      '/posts/:postId/comments',
      {
        schema: {
          summary: 'Comment on a post (idempotent by clientId)',
          params: PostParams,
          body: CreateCommentRequest,
          response: { 200: okEnvelope(CommentSchema) },
        },
      },
      async (request) => {
        const { user } = request;
        const comment = await retryOnUniqueViolation(() =>
          transact(ctx, async (trx) => {
            const { access, post } = await requireVisiblePost(trx, user, request.params.postId);
            authorize(user, 'comment', { access, post });
            return commentCreator(trx, user, access.topic, post, request.body);
          }),
        );
        if (comment.post_id !== request.params.postId) {
          throw new AppError('conflict', 'This clientId was already used for a comment on another post.');
        }
        return ok(await loadCommentView(ctx.db.kysely, user, comment.id));
      },
    );

    app.get(
      '/comments/:commentId/revisions',
      {
        schema: {
          summary: 'A comment’s earlier versions, newest first (whoever may read it)',
          params: CommentParams,
          response: { 200: okEnvelope(PostRevisionList) },
        },
      },
      async (request) => {
        // Reading the comment is the permission: one in a topic the person cannot see is 404.
        const { comment } = await requireVisibleComment(
          ctx.db.kysely,
          request.user,
          request.params.commentId,
        );
        return ok({ items: await presentCommentRevisions(ctx.db.kysely, comment) });
      },
    );

    app.patch(
      '/comments/:commentId',
      {
        schema: {
          summary: 'Change a comment’s text (the author)',
          params: CommentParams,
          body: UpdateCommentRequest,
          response: { 200: okEnvelope(CommentSchema) },
        },
      },
      async (request) => {
        const { user } = request;
        await transact(ctx, async (trx) => {
          const { access, post, comment } = await requireVisibleComment(trx, user, request.params.commentId);
          authorize(user, 'edit', { access, post, comment });
          await commentEditor(trx, user, access.topic, comment, request.body);
        });
        return ok(await loadCommentView(ctx.db.kysely, user, request.params.commentId));
      },
    );

    app.delete(
      '/comments/:commentId',
      {
        schema: {
          summary: 'Delete a comment (the author, a topic owner or an admin)',
          params: CommentParams,
          response: { 200: okEnvelope(CommentSchema) },
        },
      },
      async (request) => {
        const { user } = request;
        await transact(ctx, async (trx) => {
          const { access, post, comment } = await requireVisibleComment(trx, user, request.params.commentId);
          authorize(user, 'delete', { access, post, comment });
          await commentDeleter(trx, user, access.topic, comment);
        });
        return ok(await loadCommentView(ctx.db.kysely, user, request.params.commentId));
      },
    );
  };
}
