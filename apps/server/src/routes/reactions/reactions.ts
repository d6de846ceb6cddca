import {
  AddReactionRequest,
  CommentParams,
  EmojiParams,
  okEnvelope,
  PostParams,
  Reaction,
  type ReactionEmoji,
} from '@btalk/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { authenticate } from '../../auth/authenticate.ts';
import { type ReactionTarget, reactionAdder, reactionRemover } from '../../commands/commentCreator.ts';
import { retryOnUniqueViolation } from '../../commands/idempotency.ts';
import { transact } from '../../commands/transact.ts';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/index.ts';
import type { UserRow } from '../../db/schema.ts';
import { ok } from '../../http/envelope.ts';
import { limitWrites, perPerson } from '../../http/rateLimits.ts';
import { authorize, requireVisibleComment, requireVisiblePost } from '../../policies/post.ts';
import { loadPeople, personFrom } from '../../presenters/person.ts';

/** Loads what the person reacts to, and checks that they may. */
async function loadTarget(
  trx: Kysely<Database>,
  user: UserRow,
  where: { postId: string } | { commentId: string },
): Promise<ReactionTarget> {
  if ('postId' in where) {
    const { access, post } = await requireVisiblePost(trx, user, where.postId);
    authorize(user, 'react', { access, post });
    return { topic: access.topic, post, comment: null };
  }
  const { access, post, comment } = await requireVisibleComment(trx, user, where.commentId);
  authorize(user, 'react', { access, post, comment });
  return { topic: access.topic, post, comment };
}

/** Reactions to posts and comments: add (idempotent by clientId) and take back. */
export function reactionRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', authenticate(ctx));
    limitWrites(app, perPerson(ctx.config.rateLimits.writesPerMinute, 'writes'));

    const add = async (
      user: UserRow,
      where: { postId: string } | { commentId: string },
      body: AddReactionRequest,
    ) => {
      const row = await retryOnUniqueViolation(() =>
        transact(ctx, async (trx) =>
          reactionAdder(trx, user, await loadTarget(trx, user, where), body.clientId, body.emoji),
        ),
      );
      const person = personFrom(await loadPeople(ctx.db.kysely, [row.user_id]), row.user_id);
      return ok({
        id: row.id,
        clientId: row.client_id,
        postId: row.post_id,
        commentId: row.comment_id,
        emoji: row.emoji as ReactionEmoji,
        person,
        createdAt: row.created_at,
      });
    };
    const remove = async (
      user: UserRow,
      where: { postId: string } | { commentId: string },
      emoji: ReactionEmoji,
    ) => {
      const removed = await transact(ctx, async (trx) =>
        reactionRemover(trx, user, await loadTarget(trx, user, where), emoji),
      );
      return ok({ removed });
    };
    const Removed = okEnvelope(
      z.object({ removed: z.boolean().describe('Whether there was a reaction to take back') }),
    );

    app.post(
      '/posts/:postId/reactions',
      {
        schema: {
          summary: 'React to a post',
          params: PostParams,
          body: AddReactionRequest,
          response: { 200: okEnvelope(Reaction) },
        },
      },
      async (request) => add(request.user, { postId: request.params.postId }, request.body),
    );
    app.delete(
      '/posts/:postId/reactions/:emoji',
      {
        schema: {
          summary: 'Take back my reaction to a post',
          params: PostParams.extend(EmojiParams.shape),
          response: { 200: Removed },
        },
      },
      async (request) => remove(request.user, { postId: request.params.postId }, request.params.emoji),
    );
    app.post(
      '/comments/:commentId/reactions',
      {
        schema: {
          summary: 'React to a comment',
          params: CommentParams,
          body: AddReactionRequest,
          response: { 200: okEnvelope(Reaction) },
        },
      },
      async (request) => add(request.user, { commentId: request.params.commentId }, request.body),
    );
    app.delete(
      '/comments/:commentId/reactions/:emoji',
      {
        schema: {
          summary: 'Take back my reaction to a comment',
          params: CommentParams.extend(EmojiParams.shape),
          response: { 200: Removed },
        },
      },
      async (request) => remove(request.user, { commentId: request.params.commentId }, request.params.emoji),
    );
  };
}
