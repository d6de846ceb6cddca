import { CreateConversationRequest, okEnvelope, PageQuery, Topic, TopicPage } from '@btalk/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { authenticate } from '../../auth/authenticate.ts';
import { conversationStarter } from '../../commands/conversationStarter.ts';
import { retryOnUniqueViolation } from '../../commands/idempotency.ts';
import { transact } from '../../commands/transact.ts';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/index.ts';
import { reusable } from '../../db/reusable.ts';
import { ok } from '../../http/envelope.ts';
import { limitWrites, perPerson } from '../../http/rateLimits.ts';
import { byActivity, selectTopics, topicPageByActivity } from '../../presenters/topic.ts';
import { loadTopicView } from '../topics/topics.ts';

/** The person's direct conversations, newest activity first (only their own: a conversation is seen by its participants alone). */
const conversationRows = reusable(
  (
    db: Kysely<Database>,
    userId: string,
    afterAt: string | undefined,
    afterId: string | undefined,
    limit: number,
  ) =>
    byActivity(
      selectTopics(db, userId).where('topics.direct_key', 'is not', null).where('me.user_id', 'is not', null),
      'last_activity_at',
      afterAt,
      afterId,
      limit,
    ),
);

/**
 * Direct conversations: private topics of 2 to 8 people (visibility `direct`). Start (or get back)
 * the conversation with some people, and list mine for Home. Everything inside one (posts, files,
 * reactions, read state, members' list) is the topics API's, under `/api/topics/:topicId`.
 */
export function conversationRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', authenticate(ctx));
    limitWrites(app, perPerson(ctx.config.rateLimits.writesPerMinute, 'writes'));

    app.get(
      '/conversations',
      {
        schema: {
          summary: 'My direct conversations, newest activity first, with unread counts',
          querystring: PageQuery,
          response: { 200: okEnvelope(TopicPage) },
        },
      },
      async (request) => {
        const { user } = request;
        const { cursor, limit } = request.query;
        const db = ctx.db.kysely;
        const rowsAfter = (after: [string, string] | undefined, count: number) =>
          conversationRows(db, user.id, after?.[0], after?.[1], count);
        return ok(await topicPageByActivity(db, user, rowsAfter, cursor, limit));
      },
    );

    app.post(
      '/conversations',
      {
        schema: {
          summary:
            'The direct conversation of me and these 1 to 7 people: the same people always get the same one back',
          body: CreateConversationRequest,
          response: { 200: okEnvelope(Topic) },
        },
      },
      async (request) => {
        const { user } = request;
        const { id } = await retryOnUniqueViolation(() =>
          transact(ctx, (trx) => conversationStarter(trx, user, request.body.userIds)),
        );
        return ok(await loadTopicView(ctx.db.kysely, user, id));
      },
    );
  };
}
