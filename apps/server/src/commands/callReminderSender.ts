import { CallTreeEventName, NotificationKind } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import { notifyCallTree } from '../calltree/notify.ts';
import type { Database } from '../db/index.ts';
import type { CallEventRow, UserRow } from '../db/schema.ts';
import { recordEvent } from '../events/eventLog.ts';
import { newId, now } from '../ids.ts';

/** "Remind non-responders": tells only the targeted people who have no answer yet. */
export async function callReminderSender(
  trx: Kysely<Database>,
  actor: UserRow,
  event: CallEventRow,
): Promise<{ recipients: number }> {
  const silent = await trx
    .selectFrom('call_event_targets')
    .select('user_id')
    .where('event_id', '=', event.id)
    .where('status', '=', 'no_answer')
    .execute();
  const at = now();
  await notifyCallTree(
    trx,
    silent.map((t) => ({
      userId: t.user_id,
      kind: NotificationKind.callReminder,
      title: `Reminder: ${event.title}`,
      body: `Please answer: are you safe? ${event.message}`,
      data: { eventId: event.id, eventTitle: event.title },
    })),
    at,
    actor.id,
  );
  await trx
    .insertInto('call_reminders')
    .values({ id: newId(), event_id: event.id, sent_by: actor.id, recipients: silent.length, created_at: at })
    .execute();
  await recordEvent(trx, {
    room: `callevent:${event.id}`,
    type: CallTreeEventName.reminded,
    payload: { eventId: event.id, recipients: silent.length, at },
    actorId: actor.id,
  });
  return { recipients: silent.length };
}
