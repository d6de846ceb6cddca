import {
  BellRequest,
  CreatePostRequest,
  okEnvelope,
  PinRequest,
  Post,
  PostPage,
  PostPageQuery,
  PostParams,
  PostRevisionList,
  TopicParams,
  UpdatePostRequest,
} from '@btalk/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type Kysely, sql } from 'kysely';
import { authenticate } from '../../auth/authenticate.ts';
import { retryOnUniqueViolation } from '../../commands/idempotency.ts';
import { postCreator } from '../../commands/postCreator.ts';
import { bellRinger, postDeleter, postEditor, postPinner } from '../../commands/postEditor.ts';
import { transact } from '../../commands/transact.ts';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/index.ts';
import { reusable } from '../../db/reusable.ts';
import type { UserRow } from '../../db/schema.ts';
import { decodeCursor, encodeCursor } from '../../http/cursor.ts';
import { ok } from '../../http/envelope.ts';
import { AppError, invalid } from '../../http/errors.ts';
import { limitWrites, perPerson } from '../../http/rateLimits.ts';
import { authorize, requireVisiblePost } from '../../policies/post.ts';
import { authorize as authorizeTopic, requireVisibleTopic, type TopicAccess } from '../../policies/topic.ts';
import { postAsSeenBy, presentPosts } from '../../presenters/post.ts';
import { presentPostRevisions } from '../../presenters/postRevision.ts';

/** Where a page of posts starts: which posts, relative to which number. */
type PostPageStart =
  | { kind: 'newest' }
  | { kind: 'oldest' }
  | { kind: 'around'; number: number }
  | { kind: 'older' | 'newer'; number: number };

/**
 * Reads a posts cursor. An older-page cursor holds the number of the oldest post shown (as it always
 * has, so cursors given before newer paging existed still work); a newer-page cursor holds the number
 * of the newest post shown and the word `newer`.
 */
function readPostCursor(raw: string): PostPageStart {
  try {
    const [number] = decodeCursor<[number]>(raw, ['number'])!;
    return { kind: 'older', number };
  } catch {
    const [number, direction] = decodeCursor<[number, string]>(raw, ['number', 'string'])!;
    if (direction !== 'newer')
      throw invalid('query.cursor', 'is not a cursor this list gave: start again without it');
    return { kind: 'newer', number };
  }
}

/** The page a query asks for. */
function pageStart(query: PostPageQuery): PostPageStart {
  if (query.cursor !== undefined) return readPostCursor(query.cursor);
  if (query.around !== undefined) return { kind: 'around', number: query.around };
  return query.from === 'oldest' ? { kind: 'oldest' } : { kind: 'newest' };
}

/**
 * A topic's posts from a number on, nearest first, each with the reader's bell (null: never
 * chosen) read in the same query: older ones (below `from`, or from the newest when it is
 * undefined) or newer ones (above `from`). One indexed range read on (topic_id, number).
 */
const postsFrom = reusable(
  (
    db: Kysely<Database>,
    userId: string,
    topicId: string,
    older: boolean,
    from: number | undefined,
    limit: number,
  ) => {
    let query = db
      .selectFrom('posts')
      .leftJoin('post_bells as b', (j) => j.onRef('b.post_id', '=', 'posts.id').on('b.user_id', '=', userId))
      .selectAll('posts')
      .select('b.ringing as my_ringing')
      .where('posts.topic_id', '=', topicId);
    if (from !== undefined) query = query.where('posts.number', older ? '<' : '>', from);
    return query.orderBy('posts.number', older ? 'desc' : 'asc').limit(limit);
  },
);

type PageRow = Awaited<ReturnType<typeof postsFrom>>[number];

/**
 * Loads one page of a topic's posts, newest first, and whether there are older and newer posts
 * beyond it. Each direction is one indexed range read on (topic_id, number) of at most `limit + 1`
 * rows, so the cost is the same at post 10 and at post 100,000. The page around a post holds it,
 * up to half a page of older posts and the rest newer.
 */
async function loadPostPage(
  db: Kysely<Database>,
  userId: string,
  topicId: string,
  start: PostPageStart,
  limit: number,
): Promise<{ rows: PageRow[]; older: boolean; newer: boolean }> {
  const olderFrom = async (below: number | undefined, count: number) => {
    const rows = await postsFrom(db, userId, topicId, true, below, count + 1);
    return { rows: rows.slice(0, count), more: rows.length > count };
  };
  const newerFrom = async (above: number, count: number) => {
    const rows = await postsFrom(db, userId, topicId, false, above, count + 1);
    return { rows: rows.slice(0, count).reverse(), more: rows.length > count };
  };
  switch (start.kind) {
    case 'newest': {
      const { rows, more } = await olderFrom(undefined, limit);
      return { rows, older: more, newer: false };
    }
    case 'older': {
      const { rows, more } = await olderFrom(start.number, limit);
      return { rows, older: more, newer: true };
    }
    case 'oldest': {
      const { rows, more } = await newerFrom(0, limit);
      return { rows, older: false, newer: more };
    }
    case 'newer': {
      const { rows, more } = await newerFrom(start.number, limit);
      return { rows, older: true, newer: more };
    }
    case 'around': {
      const newerCount = Math.floor(limit / 2);
      const [before, after] = await Promise.all([
        olderFrom(start.number + 1, limit - newerCount),
        newerFrom(start.number, newerCount),
      ]);
      return { rows: [...after.rows, ...before.rows], older: before.more, newer: after.more };
    }
  }
}

/** The posts of a page whose bell rings for the reader (read with the page). */
function bellsRinging(rows: PageRow[]): Set<string> {
  return new Set(rows.filter((r) => Number(r.my_ringing) === 1).map((r) => r.id));
}

/** One post as the person sees it (they may see it: checked before). */
async function loadPostView(db: Kysely<Database>, user: UserRow, postId: string): Promise<Post> {
  const { access, post } = await requireVisiblePost(db, user, postId);
  const [view] = await presentPosts(db, user, access, [post]);
  return view!;
}

/** The topic's requests the person has not acknowledged, then its pinned posts (repeats not removed). */
const pinnedRows = reusable((db: Kysely<Database>, userId: string, topicId: string) => {
  const asking = db
    .selectFrom('announcements as a')
    .innerJoin('posts', 'posts.id', 'a.post_id')
    .leftJoin('announcement_recipients as r', (j) =>
      j.onRef('r.post_id', '=', 'a.post_id').on('r.user_id', '=', userId),
    )
    .selectAll('posts')
    .select([sql<number>`0`.as('pin_group'), 'a.urgent as pin_urgent', 'a.marked_at as pin_at'])
    .where('a.topic_id', '=', topicId)
    .where('posts.deleted_at', 'is', null)
    .where('posts.author_id', '!=', userId)
    .where('r.acknowledged_at', 'is', null);
  const pinned = db
    .selectFrom('posts')
    .selectAll('posts')
    .select([
      sql<number>`1`.as('pin_group'),
      sql<number>`0`.as('pin_urgent'),
      sql<string>`posts.pinned_at`.as('pin_at'),
    ])
    .where('posts.topic_id', '=', topicId)
    .where('posts.pinned_at', 'is not', null);
  return asking
    .unionAll(pinned)
    .orderBy('pin_group')
    .orderBy('pin_urgent', 'desc')
    .orderBy('pin_at', 'desc')
    .orderBy('id', 'desc')
    .limit(100);
});

/**
 * The posts shown pinned at the top of a topic for the person: first the important posts they have not
 * acknowledged (not their own, not deleted; urgent first, then most recently marked), then the pinned
 * posts, most recently pinned first; each once. One query (a UNION ALL of two indexed reads: the
 * topic's requests, and its pinned posts), as the pinned posts alone were.
 */
async function loadPinned(db: Kysely<Database>, user: UserRow, access: TopicAccess): Promise<Post[]> {
  const rows = await pinnedRows(db, user.id, access.topic.id);
  const seen = new Set<string>();
  const once = rows.filter((r) => !seen.has(r.id) && seen.add(r.id));
  return presentPosts(db, user, access, once.slice(0, 50));
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
          summary:
            'Posts of a topic, newest first: the newest page, the page around a post, the oldest page, or an older or newer page by cursor; a page asked without a cursor also lists the pinned posts',
          params: TopicParams,
          querystring: PostPageQuery,
          response: { 200: okEnvelope(PostPage) },
        },
      },
      async (request) => {
        const { user } = request;
        const db = ctx.db.kysely;
        const access = await requireVisibleTopic(db, user, request.params.topicId);
        const start = pageStart(request.query);
        const page = await loadPostPage(db, user.id, access.topic.id, start, request.query.limit);
        const newest = page.rows[0];
        const oldest = page.rows.at(-1);
        const [items, pinned] = await Promise.all([
          presentPosts(db, user, access, page.rows, bellsRinging(page.rows)),
          // The important posts the person has not acknowledged show there too, until they do.
          request.query.cursor === undefined ? loadPinned(db, user, access) : Promise.resolve([]),
        ]);
        return ok({
          items,
          nextCursor: page.older && oldest ? encodeCursor([Number(oldest.number)]) : null,
          newerCursor: page.newer && newest ? encodeCursor([Number(newest.number), 'newer']) : null,
          pinned,
        });
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
        const { post, base, access } = await retryOnUniqueViolation(() =>
          transact(ctx, async (trx) => {
            const access = await requireVisibleTopic(trx, user, request.params.topicId);
            authorizeTopic(user, 'post', access);
            const created = await postCreator(
              trx,
              user,
              access.topic,
              request.body,
              ctx.config.uploads.maxFiles,
            );
            return { ...created, access };
          }),
        );
        if (post.topic_id !== request.params.topicId) {
          throw new AppError('conflict', 'This clientId was already used for a post in another topic.');
        }
        // A new post is answered as written (its author's bell rings, nothing acknowledged yet); a
        // retry's post is read again, as it may have changed since.
        if (base) return ok(postAsSeenBy(user, access, post, base, { ringing: true, acknowledgedAt: null }));
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

    app.get(
      '/posts/:postId/revisions',
      {
        schema: {
          summary: 'A post’s earlier versions, newest first (whoever may read the post)',
          params: PostParams,
          response: { 200: okEnvelope(PostRevisionList) },
        },
      },
      async (request) => {
        // Reading the post is the permission: a post one cannot see is 404.
        const { post } = await requireVisiblePost(ctx.db.kysely, request.user, request.params.postId);
        return ok({ items: await presentPostRevisions(ctx.db.kysely, post) });
      },
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
