import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import { now } from '../ids.ts';

/**
 * Sets aside what earlier tests left in the notification outbox (pending deliveries, notifications
 * not yet dispatched), so a test's worker sees only what the test itself makes.
 */
export async function setAsideOutbox(db: Kysely<Database>): Promise<void> {
  await db
    .updateTable('notification_deliveries')
    .set({ status: 'skipped' })
    .where('status', '=', 'pending')
    .execute();
  await db
    .updateTable('notifications')
    .set({ dispatched_at: now() })
    .where('dispatched_at', 'is', null)
    .execute();
}
