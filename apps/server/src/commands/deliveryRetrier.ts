import type { Kysely } from 'kysely';
import { type AuditClient, audit } from '../audit/audit.ts';
import type { Database } from '../db/index.ts';
import type { DeliveryRow, UserRow } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { now } from '../ids.ts';

/**
 * Sends a dead delivery again (authorized as dead before): back to pending with no attempts, due
 * now, lease cleared; its last error stays until the next try. Audited as `notification.retried`.
 */
export async function deliveryRetrier(
  trx: Kysely<Database>,
  actor: UserRow,
  delivery: DeliveryRow,
  client: AuditClient,
): Promise<void> {
  const at = now();
  // Only while still dead: a second administrator retrying at the same time gets a 409, not a
  // second send.
  const result = await trx
    .updateTable('notification_deliveries')
    .set({
      status: 'pending',
      attempts: 0,
      next_attempt_at: at,
      locked_until: null,
      locked_by: null,
      updated_at: at,
    })
    .where('id', '=', delivery.id)
    .where('status', '=', 'dead')
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) {
    throw new AppError('conflict', 'This delivery was retried already: reload the list.');
  }
  await audit(trx, {
    actorId: actor.id,
    action: 'notification.retried',
    target: `notification_delivery:${delivery.id}`,
    details: { channel: delivery.channel, attempts: delivery.attempts, lastError: delivery.last_error },
    client,
  });
}
