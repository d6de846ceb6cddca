import {
  NotificationDelivery,
  NotificationDeliveryList,
  NotificationDeliveryListQuery,
  NotificationDeliveryParams,
  okEnvelope,
} from '@btalk/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requestClient } from '../../audit/audit.ts';
import { authenticate } from '../../auth/authenticate.ts';
import { deliveryRetrier } from '../../commands/deliveryRetrier.ts';
import { transact } from '../../commands/transact.ts';
import type { AppContext } from '../../context.ts';
import { decodeCursor, pageOf } from '../../http/cursor.ts';
import { ok } from '../../http/envelope.ts';
import { authorize } from '../../policies/notificationDelivery.ts';
import { presentDelivery, selectDeliveries } from '../../presenters/notificationDelivery.ts';

/**
 * `/api/admin/notification-deliveries`: the outbox as administrators see it: list deliveries in a
 * state (the dead letters by default) and send a dead one again.
 */
export function notificationDeliveryRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const db = ctx.db.kysely;
  return async (app) => {
    app.addHook('onRequest', authenticate(ctx));

    app.get(
      '/admin/notification-deliveries',
      {
        schema: {
          summary:
            'Notification deliveries in a state (dead letters by default), newest change first (admins)',
          querystring: NotificationDeliveryListQuery,
          response: { 200: okEnvelope(NotificationDeliveryList) },
        },
      },
      async (request) => {
        const me = request.user;
        const { status, cursor, limit } = request.query;
        const after = decodeCursor<[string, string]>(cursor, ['timestamp', 'string']);
        authorize(me, 'list');
        let query = selectDeliveries(db)
          .where('d.status', '=', status)
          .orderBy('d.updated_at', 'desc')
          .orderBy('d.id', 'desc')
          .limit(limit + 1);
        if (after) {
          const [at, id] = after;
          query = query.where((eb) =>
            eb.or([eb('d.updated_at', '<', at), eb.and([eb('d.updated_at', '=', at), eb('d.id', '<', id)])]),
          );
        }
        const totals = db
          .selectFrom('notification_deliveries')
          .select((eb) => ['status', eb.fn.countAll<string | number>().as('n')])
          .where('status', 'in', ['pending', 'dead'])
          .groupBy('status')
          .execute();
        const [rows, counts] = await Promise.all([query.execute(), totals]);
        const total = (s: string) => Number(counts.find((c) => c.status === s)?.n ?? 0);
        const page = await pageOf(
          rows,
          limit,
          (r) => [r.updated_at, r.id],
          (kept) => kept.map(presentDelivery),
        );
        return ok({ ...page, pending: total('pending'), dead: total('dead') });
      },
    );

    app.post(
      '/admin/notification-deliveries/:deliveryId/retry',
      {
        schema: {
          summary: 'Send a dead notification delivery again: back to pending, due now (admins)',
          params: NotificationDeliveryParams,
          response: { 200: okEnvelope(NotificationDelivery) },
        },
      },
      async (request) => {
        const me = request.user;
        const { deliveryId } = request.params;
        await transact(ctx, async (trx) => {
          const delivery = await trx
            .selectFrom('notification_deliveries')
            .selectAll()
            .where('id', '=', deliveryId)
            .executeTakeFirst();
          authorize(me, 'retry', delivery);
          await deliveryRetrier(trx, me, delivery, requestClient(request, 'web'));
        });
        const row = await selectDeliveries(db).where('d.id', '=', deliveryId).executeTakeFirstOrThrow();
        return ok(presentDelivery(row));
      },
    );
  };
}
