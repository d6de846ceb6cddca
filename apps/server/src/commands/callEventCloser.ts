import { CallTreeEventName } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import { eventTotals } from '../calltree/totals.ts';
import type { Database } from '../db/index.ts';
import type { CallEventRow, UserRow } from '../db/schema.ts';
import { recordEvent } from '../events/eventLog.ts';
import { AppError } from '../http/errors.ts';
import { now } from '../ids.ts';

/** Closes an event: no more answers or escalations; its numbers are final. */
export async function callEventCloser(
  trx: Kysely<Database>,
  actor: UserRow,
  event: CallEventRow,
): Promise<void> {
  const at = now();
  const closed = await trx
    .updateTable('call_events')
    .set({ status: 'closed', closed_at: at, closed_by: actor.id })
    .where('id', '=', event.id)
    .where('status', '=', 'running')
    .executeTakeFirst();
  if (Number(closed.numUpdatedRows) === 0) {
    throw new AppError('conflict', 'This event is already closed.');
  }
  await trx
    .updateTable('call_event_targets')
    .set({ next_escalation_at: null })
    .where('event_id', '=', event.id)
    .where('next_escalation_at', 'is not', null)
    .execute();
  const totals = (await eventTotals(trx, [event.id])).get(event.id);
  await recordEvent(trx, {
    room: `callevent:${event.id}`,
    type: CallTreeEventName.closed,
    payload: { eventId: event.id, closedAt: at, totals },
    actorId: actor.id,
  });
}
