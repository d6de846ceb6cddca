import {
  AcceptTermsRequest,
  CurrentTerms,
  CurrentTermsQuery,
  okEnvelope,
  PublishTermsRequest,
  TermsAcceptance,
  TermsAcceptanceList,
  TermsVersionList,
  TermsVersionSummary,
} from '@btalk/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requestClient } from '../../audit/audit.ts';
import { authenticate } from '../../auth/authenticate.ts';
import { termsAccepter } from '../../commands/termsAccepter.ts';
import { termsPublisher } from '../../commands/termsPublisher.ts';
import { transact } from '../../commands/transact.ts';
import type { AppContext } from '../../context.ts';
import { ok } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { authorize } from '../../policies/terms.ts';
import { presentCurrentTerms, presentTermsAcceptance, presentTermsVersion } from '../../presenters/terms.ts';

/**
 * The terms of use: `GET /api/terms/current`, `POST /api/terms/acceptances`,
 * `GET /api/terms/acceptances` (mine), and for administrators `POST /api/terms/versions` and
 * `GET /api/terms/versions`. Every one of them answers people who have not accepted the current
 * terms yet (`termsExempt`): they are how those people get through the gate.
 */
export function termsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const db = ctx.db.kysely;
  const onRequest = authenticate(ctx);
  const config = { termsExempt: true };

  return async (app) => {
    app.get(
      '/terms/current',
      {
        onRequest,
        config,
        schema: {
          summary: 'The current terms of use, in the caller’s language, and whether the caller accepted them',
          querystring: CurrentTermsQuery,
          response: { 200: okEnvelope(CurrentTerms) },
        },
      },
      async (request) => {
        const { user } = request;
        const row = await db
          .selectFrom('terms_versions')
          .selectAll()
          .orderBy('version', 'desc')
          .limit(1)
          .executeTakeFirst();
        if (!row)
          throw new AppError('notFound', 'No terms of use are published: an administrator publishes them.');
        authorize(user, 'read');
        const acceptance = await db
          .selectFrom('terms_acceptances')
          .selectAll()
          .where('user_id', '=', user.id)
          .where('version', '=', row.version)
          .executeTakeFirst();
        return ok(presentCurrentTerms(row, user, request.query.locale ?? user.locale, acceptance));
      },
    );

    app.post(
      '/terms/acceptances',
      {
        onRequest,
        config,
        schema: {
          summary: 'Accept the current terms of use (accepting the same version again is harmless)',
          body: AcceptTermsRequest,
          response: { 200: okEnvelope(TermsAcceptance) },
        },
      },
      async (request) => {
        const { user } = request;
        const { version, client } = request.body;
        const row = await transact(ctx, (trx) => {
          authorize(user, 'accept');
          return termsAccepter(trx, { actor: user, version, client: requestClient(request, client) });
        });
        return ok(presentTermsAcceptance(row));
      },
    );

    app.get(
      '/terms/acceptances',
      {
        onRequest,
        config,
        schema: {
          summary: 'The versions of the terms the caller accepted, newest first',
          response: { 200: okEnvelope(TermsAcceptanceList) },
        },
      },
      async (request) => {
        const { user } = request;
        authorize(user, 'read');
        const rows = await db
          .selectFrom('terms_acceptances')
          .selectAll()
          .where('user_id', '=', user.id)
          .orderBy('version', 'desc')
          .execute();
        return ok({ items: rows.map(presentTermsAcceptance) });
      },
    );

    app.post(
      '/terms/versions',
      {
        onRequest,
        config,
        schema: {
          summary: 'Publish a new version of the terms (administrators); everyone must accept it again',
          body: PublishTermsRequest,
          response: { 201: okEnvelope(TermsVersionSummary) },
        },
      },
      async (request, reply) => {
        const { user } = request;
        const { th, en, client } = request.body;
        const row = await transact(ctx, (trx) => {
          authorize(user, 'publish');
          return termsPublisher(trx, { actor: user, th, en, client: requestClient(request, client) });
        });
        ctx.terms.published(row.version);
        reply.status(201);
        return ok(presentTermsVersion(row, { current: true, acceptedCount: 0, publisher: user }));
      },
    );

    app.get(
      '/terms/versions',
      {
        onRequest,
        config,
        schema: {
          summary: 'Every version of the terms with how many people accepted it (administrators)',
          response: { 200: okEnvelope(TermsVersionList) },
        },
      },
      async (request) => {
        authorize(request.user, 'listVersions');
        const rows = await db
          .selectFrom('terms_versions as v')
          .leftJoin('users as p', 'p.id', 'v.published_by')
          .selectAll('v')
          .select(['p.id as publisher_id', 'p.display_name as publisher_name'])
          .select((eb) =>
            eb
              .selectFrom('terms_acceptances as a')
              .whereRef('a.version', '=', 'v.version')
              .select((sub) => sub.fn.countAll<number>().as('n'))
              .as('accepted_count'),
          )
          .orderBy('v.version', 'desc')
          .execute();
        const people = await db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('disabled', '=', 0)
          .executeTakeFirstOrThrow();
        const newest = rows[0]?.version;
        return ok({
          items: rows.map((row) =>
            presentTermsVersion(row, {
              current: row.version === newest,
              acceptedCount: Number(row.accepted_count ?? 0),
              publisher:
                row.publisher_id && row.publisher_name
                  ? { id: row.publisher_id, display_name: row.publisher_name }
                  : null,
            }),
          ),
          activePeople: Number(people.n),
        });
      },
    );
  };
}
