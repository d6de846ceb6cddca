import {
  CreateTopicRequest,
  FollowRequest,
  MarkReadRequest,
  okEnvelope,
  ReadState,
  SetTopicNotificationLevelRequest,
  Topic,
  TopicListQuery,
  TopicPage,
  TopicParams,
  UpdateTopicRequest,
} from '@btalk/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type Kysely, sql } from 'kysely';
import { authenticate } from '../../auth/authenticate.ts';
import { retryOnUniqueViolation } from '../../commands/idempotency.ts';
import { topicCreator } from '../../commands/topicCreator.ts';
import { readMarker, topicFollower } from '../../commands/topicMembership.ts';
import { topicNotificationLevelSetter } from '../../commands/topicNotificationLevelSetter.ts';
import { topicArchiver, topicUpdater } from '../../commands/topicUpdater.ts';
import { transact } from '../../commands/transact.ts';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/index.ts';
import { reusable } from '../../db/reusable.ts';
import type { UserRow } from '../../db/schema.ts';
import { ok } from '../../http/envelope.ts';
import {
  authorize,
  DEFAULT_TOPIC_RULES,
  requireVisibleTopic,
  type TopicRules,
  visibleTo,
} from '../../policies/topic.ts';
import { byActivity, presentTopics, selectTopics, topicPageByActivity } from '../../presenters/topic.ts';

/** The LIKE pattern of the titles that hold `words` (any case; `%`, `_` and `\\` match themselves). */
function titlePattern(words: string): string {
  return `%${words.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The topic directory's and Home's topics (direct conversations are listed apart): those the person
 * may see, archived or not, only theirs (member or following) or all, with a title holding a LIKE
 * pattern or any, newest activity first.
 */
const topicListRows = reusable(
  (
    db: Kysely<Database>,
    userId: string,
    inArchive: boolean,
    mine: boolean,
    pattern: string | undefined,
    afterAt: string | undefined,
    afterId: string | undefined,
    limit: number,
  ) => {
    let query = selectTopics(db, userId)
      .where(visibleTo(userId))
      .where('topics.direct_key', 'is', null)
      .where('topics.archived_at', inArchive ? 'is not' : 'is', null);
    if (mine) {
      query = query.where((eb) => eb.or([eb('me.user_id', 'is not', null), eb('f.user_id', 'is not', null)]));
    }
    if (pattern !== undefined)
      query = query.where(sql<boolean>`lower(topics.title) like ${pattern} escape '\\'`);
    return byActivity(query, inArchive ? 'archived_at' : 'last_activity_at', afterAt, afterId, limit);
  },
);

/** A topic as the person sees it (they may see it: checked before). */
export async function loadTopicView(
  db: Kysely<Database>,
  user: UserRow,
  topicId: string,
  rules: TopicRules = DEFAULT_TOPIC_RULES,
): Promise<Topic> {
  const row = await selectTopics(db, user.id).where('topics.id', '=', topicId).executeTakeFirstOrThrow();
  const [topic] = await presentTopics(db, user, [row], rules);
  return topic!;
}

/** Topics: list, create, read, edit, archive, follow, notification level, read state. */
export function topicRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', authenticate(ctx));

    app.get(
      '/topics',
      {
        schema: {
          summary:
            'The topics I can see, newest activity first, with unread counts (direct conversations: GET /api/conversations)',
          querystring: TopicListQuery,
          response: { 200: okEnvelope(TopicPage) },
        },
      },
      async (request) => {
        const { user } = request;
        const { cursor, limit, scope, archived, q } = request.query;
        const db = ctx.db.kysely;
        const inArchive = archived === 'true';
        const pattern = q ? titlePattern(q) : undefined;
        const rowsAfter = (after: [string, string] | undefined, count: number) =>
          topicListRows(db, user.id, inArchive, scope === 'mine', pattern, after?.[0], after?.[1], count);
        const by = inArchive ? 'archived_at' : 'last_activity_at';
        return ok(await topicPageByActivity(db, user, rowsAfter, cursor, limit, by, ctx.config));
      },
    );

    app.post(
      '/topics',
      {
        schema: {
          summary: 'Create a topic; the creator becomes its owner',
          body: CreateTopicRequest,
          response: { 200: okEnvelope(Topic) },
        },
      },
      async (request) => {
        const id = await retryOnUniqueViolation(() =>
          transact(ctx, (trx) => topicCreator(trx, request.user, request.body)),
        );
        return ok(await loadTopicView(ctx.db.kysely, request.user, id, ctx.config));
      },
    );

    app.get(
      '/topics/:topicId',
      {
        schema: {
          summary: 'A topic, with my membership, unread count, last-read marker and abilities',
          params: TopicParams,
          response: { 200: okEnvelope(Topic) },
        },
      },
      async (request) => {
        await requireVisibleTopic(ctx.db.kysely, request.user, request.params.topicId);
        return ok(await loadTopicView(ctx.db.kysely, request.user, request.params.topicId, ctx.config));
      },
    );

    app.patch(
      '/topics/:topicId',
      {
        schema: {
          summary: 'Change a topic (owners and admins)',
          params: TopicParams,
          body: UpdateTopicRequest,
          response: { 200: okEnvelope(Topic) },
        },
      },
      async (request) => {
        const { user } = request;
        await transact(ctx, async (trx) => {
          const access = await requireVisibleTopic(trx, user, request.params.topicId);
          authorize(user, 'edit', access);
          await topicUpdater(trx, user, access.topic, request.body);
        });
        return ok(await loadTopicView(ctx.db.kysely, user, request.params.topicId, ctx.config));
      },
    );

    for (const [path, archived] of [
      ['archive', true],
      ['unarchive', false],
    ] as const) {
      app.post(
        `/topics/:topicId/${path}`,
        {
          schema: {
            summary: archived ? 'Archive a topic (read-only)' : 'Take a topic out of the archive',
            params: TopicParams,
            response: { 200: okEnvelope(Topic) },
          },
        },
        async (request) => {
          const { user } = request;
          await transact(ctx, async (trx) => {
            const access = await requireVisibleTopic(trx, user, request.params.topicId);
            authorize(user, 'archive', access);
            await topicArchiver(trx, user, access.topic, archived);
          });
          return ok(await loadTopicView(ctx.db.kysely, user, request.params.topicId, ctx.config));
        },
      );
    }

    app.put(
      '/topics/:topicId/follow',
      {
        schema: {
          summary: 'Follow or unfollow an organisation-wide topic',
          params: TopicParams,
          body: FollowRequest,
          response: { 200: okEnvelope(Topic) },
        },
      },
      async (request) => {
        const { user } = request;
        await transact(ctx, async (trx) => {
          const access = await requireVisibleTopic(trx, user, request.params.topicId);
          await topicFollower(trx, user, access.topic, request.body.following);
        });
        return ok(await loadTopicView(ctx.db.kysely, user, request.params.topicId, ctx.config));
      },
    );

    app.put(
      '/topics/:topicId/notifications',
      {
        schema: {
          summary: 'Choose how much of a topic notifies me: all posts, mentions only, or muted',
          params: TopicParams,
          body: SetTopicNotificationLevelRequest,
          response: { 200: okEnvelope(Topic) },
        },
      },
      async (request) => {
        const { user } = request;
        await transact(ctx, async (trx) => {
          const access = await requireVisibleTopic(trx, user, request.params.topicId);
          await topicNotificationLevelSetter(trx, user, access.topic, request.body.level);
        });
        return ok(await loadTopicView(ctx.db.kysely, user, request.params.topicId, ctx.config));
      },
    );

    app.put(
      '/topics/:topicId/read',
      {
        schema: {
          summary: 'Move my last-read marker forward',
          params: TopicParams,
          body: MarkReadRequest,
          response: { 200: okEnvelope(ReadState) },
        },
      },
      async (request) => {
        const { user } = request;
        await transact(ctx, async (trx) => {
          const access = await requireVisibleTopic(trx, user, request.params.topicId);
          await readMarker(trx, user, access.topic, request.body.lastReadNumber);
        });
        const view = await loadTopicView(ctx.db.kysely, user, request.params.topicId, ctx.config);
        return ok({ topicId: view.id, lastReadNumber: view.lastReadNumber, unreadCount: view.unreadCount });
      },
    );
  };
}
