import { okEnvelope, RefusedFileTypes, RefusedFileTypesUpdate } from '@btalk/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { requestClient } from '../../audit/audit.ts';
import { authenticate } from '../../auth/authenticate.ts';
import { refusedFileTypesSetter } from '../../commands/refusedFileTypesSetter.ts';
import { transact } from '../../commands/transact.ts';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/index.ts';
import { loadRefusedTypes, type RefusedTypes } from '../../files/refusedTypes.ts';
import { ok } from '../../http/envelope.ts';
import { limitWrites, perPerson } from '../../http/rateLimits.ts';
import { authorize } from '../../policies/uploadSettings.ts';
import { presentRefusedFileTypes } from '../../presenters/uploadSettings.ts';

/** The person who last changed the list, for the answer. */
async function present(db: Kysely<Database>, refused: RefusedTypes) {
  const by = refused.row?.updated_by
    ? await db
        .selectFrom('users')
        .select(['id', 'display_name'])
        .where('id', '=', refused.row.updated_by)
        .executeTakeFirst()
    : undefined;
  return presentRefusedFileTypes(refused, by);
}

/**
 * `/api/admin/uploads/refused-types`: the file types uploads refuse (by name and by content), which
 * administrators read and replace; until one does, UPLOAD_REFUSED_EXTENSIONS applies.
 */
export function uploadSettingsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const db = ctx.db.kysely;
  return async (app) => {
    app.addHook('onRequest', authenticate(ctx));
    limitWrites(app, perPerson(ctx.config.rateLimits.writesPerMinute, 'writes'));

    app.get(
      '/admin/uploads/refused-types',
      {
        schema: {
          summary: 'The file types uploads refuse, and who last changed the list (admins)',
          response: { 200: okEnvelope(RefusedFileTypes) },
        },
      },
      async (request) => {
        authorize(request.user, 'read');
        return ok(await present(db, await loadRefusedTypes(db, ctx.config)));
      },
    );

    app.put(
      '/admin/uploads/refused-types',
      {
        schema: {
          summary: 'Replace the file types uploads refuse (extensions such as exe; admins)',
          body: RefusedFileTypesUpdate,
          response: { 200: okEnvelope(RefusedFileTypes) },
        },
      },
      async (request) => {
        const me = request.user;
        const refused = await transact(ctx, async (trx) => {
          authorize(me, 'update');
          const before = await loadRefusedTypes(trx, ctx.config);
          const row = await refusedFileTypesSetter(
            trx,
            me,
            request.body.extensions,
            before.extensions,
            requestClient(request, 'web'),
          );
          return { extensions: JSON.parse(row.refused_extensions) as string[], row };
        });
        return ok(await present(db, refused));
      },
    );
  };
}
