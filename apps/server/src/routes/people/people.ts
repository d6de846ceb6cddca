import {
  AdminPeoplePage,
  AdminPeopleQuery,
  AdminPerson,
  AdminPersonParams,
  AdminPersonUpdate,
  okEnvelope,
} from '@btalk/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requestClient } from '../../audit/audit.ts';
import { authenticate } from '../../auth/authenticate.ts';
import { personAccessUpdater } from '../../commands/personAccess.ts';
import { transact } from '../../commands/transact.ts';
import type { AppContext } from '../../context.ts';
import { type CursorValues, pageOf } from '../../http/cursor.ts';
import { ok } from '../../http/envelope.ts';
import { limitWrites, perPerson } from '../../http/rateLimits.ts';
import { searchPeople } from '../../people/search.ts';
import { authorize } from '../../policies/person.ts';
import { presentAdminPerson } from '../../presenters/adminPerson.ts';

/**
 * `/api/admin/people`: the People screen of administrators: everyone BTalk knows (disabled people
 * too), by name, and changing a person's role or disabled state (disabling ends their sessions).
 */
export function adminPeopleRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const db = ctx.db.kysely;
  return async (app) => {
    app.addHook('onRequest', authenticate(ctx));
    limitWrites(app, perPerson(ctx.config.rateLimits.writesPerMinute, 'writes'));

    app.get(
      '/admin/people',
      {
        schema: {
          summary: 'Everyone, by name, with role, where it comes from, and disabled state (admins)',
          querystring: AdminPeopleQuery,
          response: { 200: okEnvelope(AdminPeoplePage) },
        },
      },
      async (request) => {
        const me = request.user;
        authorize(me, 'list');
        const rows = await searchPeople(db, request.query);
        const { limit } = request.query;
        return ok(
          await pageOf(
            rows,
            limit,
            (r): CursorValues => [r.display_name, r.id],
            (kept) => kept.map((r) => presentAdminPerson(me, r)),
          ),
        );
      },
    );

    app.patch(
      '/admin/people/:personId',
      {
        schema: {
          summary:
            'Make a person an administrator or take the role away, disable them (every session ends) or enable them (admins)',
          params: AdminPersonParams,
          body: AdminPersonUpdate,
          response: { 200: okEnvelope(AdminPerson) },
        },
      },
      async (request) => {
        const me = request.user;
        const { personId } = request.params;
        const change = request.body;
        const person = await transact(ctx, async (trx) => {
          const found = await trx
            .selectFrom('users')
            .selectAll()
            .where('id', '=', personId)
            .executeTakeFirst();
          authorize(me, 'update', found, change);
          return personAccessUpdater(trx, me, found.id, change, requestClient(request, 'web'));
        });
        // Taking your own role away: your abilities are those of the member you now are.
        return ok(presentAdminPerson(person.id === me.id ? person : me, person));
      },
    );
  };
}
