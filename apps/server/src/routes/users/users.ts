import { okEnvelope, UserPage, UserSearchQuery } from '@btalk/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { authenticate } from '../../auth/authenticate.ts';
import type { AppContext } from '../../context.ts';
import { type CursorValues, decodeCursor, pageOf } from '../../http/cursor.ts';
import { ok } from '../../http/envelope.ts';
import { presentUser } from '../../presenters/user.ts';

/** `GET /api/users`: the people picker over everyone the directory has synced (active people only). */
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
        const { search, cursor, limit } = request.query;
        const after = decodeCursor<[string, string]>(cursor, ['string', 'string']);
        let query = ctx.db.kysely.selectFrom('users').selectAll().where('disabled', '=', 0);
        if (search) {
          const pattern = `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
          const matches = (['display_name', 'email', 'department'] as const).map(
            (column) => sql<boolean>`lower(coalesce(${sql.ref(column)}, '')) like ${pattern} escape '\\'`,
          );
          query = query.where(sql<boolean>`(${sql.join(matches, sql` or `)})`);
        }
        if (after) {
          const [name, id] = after;
          query = query.where((eb) =>
            eb.or([
              eb('display_name', '>', name),
              eb.and([eb('display_name', '=', name), eb('id', '>', id)]),
            ]),
          );
        }
        const rows = await query
          .orderBy('display_name')
          .orderBy('id')
          .limit(limit + 1)
          .execute();
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
