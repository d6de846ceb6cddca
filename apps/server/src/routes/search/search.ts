import { okEnvelope, SearchPage, SearchQuery } from '@btalk/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { authenticate } from '../../auth/authenticate.ts';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/index.ts';
import type { UserRow } from '../../db/schema.ts';
import { ok } from '../../http/envelope.ts';
import { invalid } from '../../http/errors.ts';
import { loadTopicAccess } from '../../policies/topic.ts';
import { withConversationTitles } from '../../presenters/conversation.ts';
import { presentPerson } from '../../presenters/person.ts';
import { type SearchFilters, searchVisible } from '../../search/searchIndex.ts';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The instant a `from` or `to` filter names, as the database stores times: a day starts at its
 * first millisecond (from) or ends at its last (to), in UTC; a date-time is that instant.
 */
export function filterInstant(value: string, edge: 'from' | 'to'): string {
  if (!DAY.test(value)) return new Date(value).toISOString();
  const start = new Date(`${value}T00:00:00.000Z`).getTime();
  return new Date(edge === 'from' ? start : start + 86_400_000 - 1).toISOString();
}

/**
 * Checks the filters against what they name: a topic the caller may see (another's members-only
 * topic is as unknown as one that does not exist), a person who exists, `from` not after `to`.
 */
async function loadFilters(db: Kysely<Database>, viewer: UserRow, query: SearchQuery) {
  const filters: SearchFilters = {};
  let topic: { id: string; title: string } | null = null;
  let author: UserRow | null = null;
  if (query.topic !== undefined) {
    const access = await loadTopicAccess(db, viewer, query.topic);
    if (!access) throw invalid('query.topic', 'no topic you can see has this id');
    topic = { id: access.topic.id, title: access.topic.title };
    filters.topicId = access.topic.id;
  }
  if (query.author !== undefined) {
    author =
      (await db.selectFrom('users').selectAll().where('id', '=', query.author).executeTakeFirst()) ?? null;
    if (!author) throw invalid('query.author', 'no person has this id');
    filters.authorId = author.id;
  }
  if (query.hasFile !== undefined) filters.hasFile = query.hasFile === 'true';
  if (query.kind !== undefined) filters.kind = query.kind;
  if (query.from !== undefined) filters.from = filterInstant(query.from, 'from');
  if (query.to !== undefined) filters.to = filterInstant(query.to, 'to');
  if (filters.from !== undefined && filters.to !== undefined && filters.from > filters.to) {
    throw invalid('query.to', 'must not be before from');
  }
  return { filters, topic, author: author ? presentPerson(author) : null };
}

/**
 * `GET /api/search`: topics, posts and comments the caller may see, holding every word of `q`,
 * narrowed by topic, author, files and date; each with a plain-text snippet and its matches.
 */
export function searchRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/search',
      {
        onRequest: authenticate(ctx),
        schema: {
          summary: 'Search topics, posts and comments I can see (Thai: any part of a word), with filters',
          querystring: SearchQuery,
          response: { 200: okEnvelope(SearchPage) },
        },
      },
      async (request) => {
        const { q, cursor, limit } = request.query;
        const db = ctx.db.kysely;
        const { filters, topic, author } = await loadFilters(db, request.user, request.query);
        const found = await searchVisible(db, request.user.id, q, filters, cursor, limit);
        // Hits in direct conversations get their people's names as the title (none is stored).
        return ok(await withConversationTitles(db, { ...found, filters: { topic, author } }));
      },
    );
  };
}
