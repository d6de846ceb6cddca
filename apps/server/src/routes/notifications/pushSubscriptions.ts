import {
  DeletePushSubscriptionRequest,
  okEnvelope,
  PushSubscriptionRequest,
  PushSubscriptionResult,
} from '@btalk/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authenticate } from '../../auth/authenticate.ts';
import { pushSubscriber, pushUnsubscriber } from '../../commands/pushSubscriptions.ts';
import { transact } from '../../commands/transact.ts';
import type { AppContext } from '../../context.ts';
import { ok } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { authorize } from '../../policies/pushSubscription.ts';
import { countPushSubscriptions } from '../../presenters/notificationSettings.ts';

/** A subscription is a URL and two short keys: anything bigger is refused with 413 before parsing. */
const SUBSCRIPTION_BODY_LIMIT = 4096;

/**
 * `/api/me/push-subscriptions`: subscribe this browser to my push notifications, or forget it.
 * Switching push on or off in the settings is a separate call (the web app makes both).
 */
export function pushSubscriptionRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', authenticate(ctx));

    app.post(
      '/me/push-subscriptions',
      {
        bodyLimit: SUBSCRIPTION_BODY_LIMIT,
        schema: {
          summary:
            "Subscribe this browser to my push notifications (the browser's PushSubscription.toJSON())",
          body: PushSubscriptionRequest,
          response: { 200: okEnvelope(PushSubscriptionResult) },
        },
      },
      async (request) => {
        const me = request.user;
        if (ctx.notifications.vapid === null) {
          throw new AppError(
            'conflict',
            'Push notifications are switched off on this server (WEB_PUSH=false): ask an administrator, or use e-mail.',
          );
        }
        const count = await transact(ctx, async (trx) => {
          authorize(me, 'subscribe');
          await pushSubscriber(trx, me, request.body);
          return countPushSubscriptions(trx, me.id);
        });
        return ok({ subscribed: true, pushSubscriptions: count });
      },
    );

    app.delete(
      '/me/push-subscriptions',
      {
        bodyLimit: SUBSCRIPTION_BODY_LIMIT,
        schema: {
          summary: 'Stop push notifications to this browser (give its subscription endpoint)',
          body: DeletePushSubscriptionRequest,
          response: { 200: okEnvelope(PushSubscriptionResult) },
        },
      },
      async (request) => {
        const me = request.user;
        const { endpoint } = request.body;
        const count = await transact(ctx, async (trx) => {
          const row = await trx
            .selectFrom('push_subscriptions')
            .selectAll()
            .where('endpoint', '=', endpoint)
            .executeTakeFirst();
          authorize(me, 'unsubscribe', row);
          await pushUnsubscriber(trx, me, endpoint);
          return countPushSubscriptions(trx, me.id);
        });
        return ok({ subscribed: false, pushSubscriptions: count });
      },
    );
  };
}
