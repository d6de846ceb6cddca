import type { PushSubscriptionRequest } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { UserRow } from '../db/schema.ts';
import { newId, now } from '../ids.ts';

/**
 * Keeps a browser's push subscription for the person. A browser has one subscription per server,
 * so an endpoint already kept for someone else now belongs to this person: the last person signed
 * in on a browser gets its pushes, the one before no longer does.
 */
export async function pushSubscriber(
  trx: Kysely<Database>,
  actor: UserRow,
  subscription: PushSubscriptionRequest,
): Promise<void> {
  const at = now();
  const keys = { p256dh: subscription.keys.p256dh, auth: subscription.keys.auth };
  await trx
    .insertInto('push_subscriptions')
    .values({
      id: newId(),
      user_id: actor.id,
      endpoint: subscription.endpoint,
      ...keys,
      created_at: at,
      last_success_at: null,
    })
    .onConflict((oc) =>
      oc.column('endpoint').doUpdateSet((eb) => ({
        ...keys,
        user_id: actor.id,
        // A subscription handed to another person starts afresh; the same person's keeps its dates.
        created_at: eb
          .case()
          .when('push_subscriptions.user_id', '=', actor.id)
          .then(eb.ref('push_subscriptions.created_at'))
          .else(at)
          .end(),
        last_success_at: eb
          .case()
          .when('push_subscriptions.user_id', '=', actor.id)
          .then(eb.ref('push_subscriptions.last_success_at'))
          .else(null)
          .end(),
      })),
    )
    .execute();
}

/** Forgets a browser's push subscription of the actor (already authorized as theirs). */
export async function pushUnsubscriber(
  trx: Kysely<Database>,
  actor: UserRow,
  endpoint: string,
): Promise<void> {
  await trx
    .deleteFrom('push_subscriptions')
    .where('endpoint', '=', endpoint)
    .where('user_id', '=', actor.id)
    .execute();
}
