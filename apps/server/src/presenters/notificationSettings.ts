import type { NotificationSettings, NotificationSettingsView } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/index.ts';

/** How many browsers of a person receive push notifications. */
export async function countPushSubscriptions(db: Kysely<Database>, userId: string): Promise<number> {
  const row = await db
    .selectFrom('push_subscriptions')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A person's settings with what this server offers and how many of their browsers are subscribed. */
export async function presentNotificationSettings(
  db: Kysely<Database>,
  notifications: AppContext['notifications'],
  userId: string,
  settings: NotificationSettings,
): Promise<NotificationSettingsView> {
  return {
    ...settings,
    available: {
      push: notifications.vapid !== null,
      email: notifications.channels.some((c) => c.name === 'email'),
      // The Teams bot comes with its own issue; until then no server can message people in Teams.
      teams: false,
    },
    // The Teams issue records the bot's conversation with each person (SPEC's `user_enable`); until
    // then nobody has added the app.
    teamsConnected: false,
    vapidPublicKey: notifications.vapid?.publicKey ?? null,
    pushSubscriptions: await countPushSubscriptions(db, userId),
  };
}
