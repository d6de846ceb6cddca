import {
  BellRequest,
  CreatePostRequest,
  okEnvelope,
  PageQuery,
  PinRequest,
  Post,
  PostPage,
  PostParams,
  TopicParams,
  UpdatePostRequest,
} from '@btalk/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { authenticate } from '../../auth/authenticate.ts';
import { retryOnUniqueViolation } from '../../commands/idempotency.ts';
import { postCreator } from '../../commands/postCreator.ts';
import { bellRinger, postDeleter, postEditor, postPinner } from '../../commands/postEditor.ts';
import { transact } from '../../commands/transact.ts';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/index.ts';
import type { UserRow } from '../../db/schema.ts';
import { type CursorValues, decodeCursor, pageOf } from '../../http/cursor.ts';
import { ok } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { limitWrites, perPerson } from '../../http/rateLimits.ts';
import { authorize, requireVisiblePost } from '../../policies/post.ts';
import { authorize as authorizeTopic, requireVisibleTopic } from '../../policies/topic.ts';
import { presentPosts } from '../../presenters/post.ts';

/** One post as the person sees it (they may see it: checked before). */
async function loadPostView(db: Kysely<Database>, user: UserRow, postId: string): Promise<Post> {
  const { access, post } = await requireVisiblePost(db, user, postId);
  const [view] = await presentPosts(db, user, access, [post]);
  return view!;
}

/** Posts: the topic page, write, read, edit, delete, pin, bell. */
export function postRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', authenticate(ctx));
    limitWrites(app, perPerson(ctx.config.rateLimits.writesPerMinute, 'writes'));

    app.get(
      '/topics/:topicId/posts',
      {
        schema: {
          summary: 'Posts of a topic, newest first; the first page also lists the pinned posts',
          params: TopicParams,
          querystring: PageQuery,
          response: { 200: okEnvelope(PostPage) },
        },
      },
      async (request) => {
        const { user } = request;
        const { cursor, limit } = request.query;
        const db = ctx.db.kysely;
        const access = await requireVisibleTopic(db, user, request.params.topicId);
        const after = decodeCursor<[number]>(cursor, ['number']);
        let query = db.selectFrom('posts').selectAll().where('topic_id', '=', access.topic.id);
        if (after) query = query.where('number', '<', after[0]);
        const rows = await query
          .orderBy('number', 'desc')
          .limit(limit + 1)
          .execute();
        const pinnedRows = after
          ? []
          : await db
              .selectFrom('posts')
              .selectAll()
              .where('topic_id', '=', access.topic.id)
              .where('pinned_at', 'is not', null)
              .orderBy('pinned_at', 'desc')
              .limit(50)
              .execute();
        const pagePart = await pageOf(
          rows,
          limit,
          (r): CursorValues => [Number(r.number)],
          (kept) => presentPosts(db, user, access, kept),
        );
        return ok({ ...pagePart, pinned: await presentPosts(db, user, access, pinnedRows) });
      },
    );

    app.post(
      '/topics/:topicId/posts',
      {
        schema: {
          summary: 'Write a post (idempotent by clientId)',
          params: TopicParams,
          body: CreatePostRequest,
          response: { 200: okEnvelope(Post) },
        },
      },
      async (request) => {
        const { user } = request;
        const post = await retryOnUniqueViolation(() =>
          transact(ctx, async (trx) => {
            const access = await requireVisibleTopic(trx, user, request.params.topicId);
            authorizeTopic(user, 'post', access);
            return postCreator(trx, user, access.topic, request.body, ctx.config.uploads.maxFiles);
          }),
        );
        if (post.topic_id !== request.params.topicId) {
          throw new AppError('conflict', 'This clientId was already used for a post in another topic.');
        }
        return ok(await loadPostView(ctx.db.kysely, user, post.id));
      },
    );

    app.get(
      '/posts/:postId',
      {
        schema: { summary: 'One post', params: PostParams, response: { 200: okEnvelope(Post) } },
      },
      async (request) => ok(await loadPostView(ctx.db.kysely, request.user, request.params.postId)),
    );

    app.patch(
      '/posts/:postId',
      {
        schema: {
          summary: 'Change a post’s text (the author)',
          params: PostParams,
          body: UpdatePostRequest,
          response: { 200: okEnvelope(Post) },
        },
      },
      async (request) => {
        const { user } = request;
        await transact(ctx, async (trx) => {
          const { access, post } = await requireVisiblePost(trx, user, request.params.postId);
          authorize(user, 'edit', { access, post });
          await postEditor(trx, user, access.topic, post, request.body);
        });
        return ok(await loadPostView(ctx.db.kysely, user, request.params.postId));
      },
    );

    app.delete(
      '/posts/:postId',
      {
        schema: {
          summary: 'Delete a post (the author, a topic owner or an admin); a placeholder stays',
          params: PostParams,
          response: { 200: okEnvelope(Post) },
        },
      },
      async (request) => {
        const { user } = request;
        const files = await transact(ctx, async (trx) => {
          const { access, post } = await requireVisiblePost(trx, user, request.params.postId);
          authorize(user, 'delete', { access, post });
          return postDeleter(trx, user, access.topic, post);
        });
        await Promise.all(
          files.map((key) =>
            ctx.files
              .delete(key)
              .catch((error: unknown) => request.log.warn({ err: error, key }, 'file not removed')),
          ),
        );
        return ok(await loadPostView(ctx.db.kysely, user, request.params.postId));
      },
    );

    app.put(
      '/posts/:postId/pin',
      {
        schema: {
          summary: 'Pin or unpin a post (topic owners)',
          params: PostParams,
          body: PinRequest,
          response: { 200: okEnvelope(Post) },
        },
      },
      async (request) => {
        const { user } = request;
        await transact(ctx, async (trx) => {
          const { access, post } = await requireVisiblePost(trx, user, request.params.postId);
          authorize(user, 'pin', { access, post });
          await postPinner(trx, user, access.topic, post, request.body.pinned);
        });
        return ok(await loadPostView(ctx.db.kysely, user, request.params.postId));
      },
    );

    app.put(
      '/posts/:postId/bell',
      {
        schema: {
          summary: 'Set my bell on a post: ring = notify me of new comments, off = don’t',
          params: PostParams,
          body: BellRequest,
          response: { 200: okEnvelope(Post) },
        },
      },
      async (request) => {
        const { user } = request;
        await transact(ctx, async (trx) => {
          const { post } = await requireVisiblePost(trx, user, request.params.postId);
          await bellRinger(trx, user, post, request.body.bell);
        });
        return ok(await loadPostView(ctx.db.kysely, user, request.params.postId));
      },
    );
  };
}
