import { okEnvelope, SearchPage, SearchQuery } from '@btalk/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authenticate } from '../../auth/authenticate.ts';
import type { AppContext } from '../../context.ts';
import { ok } from '../../http/envelope.ts';
import { searchVisible } from '../../search/searchIndex.ts';

/** `GET /api/search`: topics and posts the caller may see, containing every word of `q`. */
export function searchRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/search',
      {
        onRequest: authenticate(ctx),
        schema: {
          summary: 'Search topics and posts I can see (Thai: any part of a word)',
          querystring: SearchQuery,
          response: { 200: okEnvelope(SearchPage) },
        },
      },
      async (request) => {
        const { q, cursor, limit } = request.query;
        return ok(await searchVisible(ctx.db.kysely, request.user.id, q, cursor, limit));
      },
    );
  };
}
