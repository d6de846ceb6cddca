import {
  MarkNotificationsReadRequest,
  MarkNotificationsReadResult,
  NotificationList,
  NotificationListQuery,
  okEnvelope,
} from '@btalk/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authenticate } from '../../auth/authenticate.ts';
import { markNotificationsRead, unreadCount } from '../../commands/notificationReader.ts';
import { transact } from '../../commands/transact.ts';
import type { AppContext } from '../../context.ts';
import { decodeCursor, pageOf } from '../../http/cursor.ts';
import { ok } from '../../http/envelope.ts';
import { authorize } from '../../policies/notification.ts';
import { presentNotification } from '../../presenters/notification.ts';

/** The signed-in person's in-app notifications: list them and mark them read. */
export function notificationRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const db = ctx.db.kysely;
  return async (app) => {
    app.addHook('onRequest', authenticate(ctx));

    app.get(
      '/notifications',
      {
        schema: {
          summary: 'My notifications, newest first, with how many are unread',
          querystring: NotificationListQuery,
          response: { 200: okEnvelope(NotificationList) },
        },
      },
      async (request) => {
        const me = request.user;
        authorize(me, 'list');
        const { cursor, limit } = request.query;
        const after = decodeCursor<[string, string]>(cursor, ['timestamp', 'string']);
        let query = db
          .selectFrom('notifications')
          .selectAll()
          .where('user_id', '=', me.id)
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(limit + 1);
        if (after) {
          const [at, id] = after;
          query = query.where((eb) =>
            eb.or([eb('created_at', '<', at), eb.and([eb('created_at', '=', at), eb('id', '<', id)])]),
          );
        }
        const [rows, unread] = await Promise.all([query.execute(), unreadCount(db, me.id)]);
        const page = await pageOf(
          rows,
          limit,
          (r) => [r.created_at, r.id],
          (kept) => kept.map(presentNotification),
        );
        return ok({ ...page, unreadCount: unread });
      },
    );

    app.post(
      '/notifications/read',
      {
        schema: {
          summary: 'Mark the given notifications of mine, or all of them, as read',
          body: MarkNotificationsReadRequest,
          response: { 200: okEnvelope(MarkNotificationsReadResult) },
        },
      },
      async (request) => {
        const me = request.user;
        const ids = request.body.ids ? [...new Set(request.body.ids)] : undefined;
        const result = await transact(ctx, async (trx) => {
          const rows = ids
            ? await trx.selectFrom('notifications').selectAll().where('id', 'in', ids).execute()
            : [];
          authorize(me, 'markRead', ids, rows);
          const marked = await markNotificationsRead(trx, me, ids ? { ids } : { all: true });
          return { marked, unreadCount: await unreadCount(trx, me.id) };
        });
        return ok(result);
      },
    );
  };
}
