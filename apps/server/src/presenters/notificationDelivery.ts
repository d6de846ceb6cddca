import type { NotificationDelivery } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';

/** Deliveries with their notification's kind and title and the person they are for. */
export function selectDeliveries(db: Kysely<Database>) {
  return db
    .selectFrom('notification_deliveries as d')
    .innerJoin('notifications as n', 'n.id', 'd.notification_id')
    .innerJoin('users as u', 'u.id', 'd.user_id')
    .selectAll('d')
    .select(['n.kind as kind', 'n.title as title', 'u.display_name as display_name', 'u.email as email']);
}

/** A row of `selectDeliveries`. */
export type DeliveryViewRow = Awaited<
  ReturnType<ReturnType<typeof selectDeliveries>['executeTakeFirstOrThrow']>
>;

/** A delivery as an administrator sees it. */
export function presentDelivery(row: DeliveryViewRow): NotificationDelivery {
  return {
    id: row.id,
    channel: row.channel,
    status: row.status,
    attempts: Number(row.attempts),
    lastError: row.last_error,
    kind: row.kind,
    title: row.title,
    person: { id: row.user_id, displayName: row.display_name, email: row.email },
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
