import { okEnvelope, UserPage, UserSearchQuery } from '@btalk/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authenticate } from '../../auth/authenticate.ts';
import type { AppContext } from '../../context.ts';
import { type CursorValues, pageOf } from '../../http/cursor.ts';
import { ok } from '../../http/envelope.ts';
import { searchPeople } from '../../people/search.ts';
import { findablePeople } from '../../policies/people.ts';
import { presentUser } from '../../presenters/user.ts';

/**
 * `GET /api/users`: the one people search (the people picker of topics, mentions and call trees) over
 * everyone the directory has synced; who finds whom is `policies/people.ts`.
 */
export function userRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/users',
      {
        onRequest: authenticate(ctx),
        schema: {
          summary: 'Find people by part of a name, e-mail or department (Thai or English), by name',
          querystring: UserSearchQuery,
          response: { 200: okEnvelope(UserPage) },
        },
      },
      async (request) => {
        const rows = await searchPeople(ctx.db.kysely, request.query, findablePeople());
        const { limit } = request.query;
        return ok(
          await pageOf(
            rows,
            limit,
            (r): CursorValues => [r.display_name, r.id],
            (kept) => kept.map(presentUser),
          ),
        );
      },
    );
  };
}
