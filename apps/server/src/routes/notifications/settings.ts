import { NotificationSettingsView, okEnvelope, UpdateNotificationSettingsRequest } from '@btalk/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authenticate } from '../../auth/authenticate.ts';
import { notificationSettingsUpdater } from '../../commands/notificationSettingsUpdater.ts';
import { transact } from '../../commands/transact.ts';
import type { AppContext } from '../../context.ts';
import { ok } from '../../http/envelope.ts';
import { loadSettings } from '../../notifications/settings.ts';
import { presentNotificationSettings } from '../../presenters/notificationSettings.ts';

/**
 * `/api/me/notification-settings`: the signed-in person's channels, kinds and quiet hours, with what
 * this server offers. Every signed-in person manages only their own, so there is no policy to ask;
 * like the rest of the app, these routes wait for the terms of use to be accepted.
 */
export function notificationSettingsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const db = ctx.db.kysely;
  return async (app) => {
    app.addHook('onRequest', authenticate(ctx));

    app.get(
      '/me/notification-settings',
      {
        schema: {
          summary:
            'My notification settings (defaults until I change them) and the channels this server offers',
          response: { 200: okEnvelope(NotificationSettingsView) },
        },
      },
      async (request) => {
        const me = request.user;
        const settings = await loadSettings(db, me.id);
        return ok(await presentNotificationSettings(db, ctx, me.id, settings));
      },
    );

    app.patch(
      '/me/notification-settings',
      {
        schema: {
          summary: 'Change parts of my notification settings; unknown keys are refused',
          body: UpdateNotificationSettingsRequest,
          response: { 200: okEnvelope(NotificationSettingsView) },
        },
      },
      async (request) => {
        const me = request.user;
        const settings = await transact(ctx, (trx) => notificationSettingsUpdater(trx, me, request.body));
        return ok(await presentNotificationSettings(db, ctx, me.id, settings));
      },
    );
  };
}
