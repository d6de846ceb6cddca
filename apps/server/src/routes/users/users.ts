import { okEnvelope, UserPage, UserParams, UserProfile, UserSearchQuery } from '@btalk/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authenticate } from '../../auth/authenticate.ts';
import type { AppContext } from '../../context.ts';
import { type CursorValues, pageOf } from '../../http/cursor.ts';
import { ok } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { searchPeople } from '../../people/search.ts';
import { findablePeople } from '../../policies/people.ts';
import { presentProfile, presentUser } from '../../presenters/user.ts';

/**
 * `GET /api/users`: the one people search (the people picker of topics, mentions and call trees) over
 * everyone the directory has synced; who finds whom is `policies/people.ts`. `GET /api/users/:userId`:
 * a person's profile card.
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

    app.get(
      '/users/:userId',
      {
        onRequest: authenticate(ctx),
        schema: {
          summary:
            'A person’s profile card: names, job title, department, manager, phone and e-mail from the directory',
          params: UserParams,
          response: { 200: okEnvelope(UserProfile) },
        },
      },
      async (request) => {
        const db = ctx.db.kysely;
        // Everyone signed in may read anyone's card (policies/people.ts).
        const person = await db
          .selectFrom('users')
          .selectAll()
          .where('id', '=', request.params.userId)
          .executeTakeFirst();
        if (!person) throw new AppError('notFound', 'No such person: pick someone BTalk knows.');
        // The manager is named by their directory subject, at the same directory.
        const manager = person.manager_subject
          ? await db
              .selectFrom('users')
              .select(['id', 'display_name', 'email'])
              .where('issuer', '=', person.issuer)
              .where('subject', '=', person.manager_subject)
              .executeTakeFirst()
          : undefined;
        return ok(presentProfile(person, manager ?? null));
      },
    );
  };
}
