import type { NotificationSettings, NotificationSettingsView } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/index.ts';
import { isTeamsConnected } from '../teams/conversations.ts';

/** How many browsers of a person receive push notifications. */
export async function countPushSubscriptions(db: Kysely<Database>, userId: string): Promise<number> {
  const row = await db
    .selectFrom('push_subscriptions')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * A person's settings with what this server offers (Teams: a bot is configured), whether they have
 * added BTalk in Teams (SPEC's `user_enable`: the bot keeps a live conversation with them) and how
 * many of their browsers are subscribed.
 */
export async function presentNotificationSettings(
  db: Kysely<Database>,
  ctx: Pick<AppContext, 'notifications' | 'config'>,
  userId: string,
  settings: NotificationSettings,
): Promise<NotificationSettingsView> {
  const { notifications } = ctx;
  return {
    ...settings,
    available: {
      push: notifications.vapid !== null,
      email: notifications.channels.some((c) => c.name === 'email'),
      teams: ctx.config.teamsBot !== null,
    },
    teamsConnected: await isTeamsConnected(db, userId),
    vapidPublicKey: notifications.vapid?.publicKey ?? null,
    pushSubscriptions: await countPushSubscriptions(db, userId),
  };
}
