import {
  type MarkNotificationsReadRequest,
  NotificationEventName,
  type NotificationsReadPayload,
  userRoom,
} from '@btalk/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { UserRow } from '../db/schema.ts';
import { recordEvent } from '../events/eventLog.ts';
import { now } from '../ids.ts';

/** How many of a person's notifications are unread. */
export async function unreadCount(db: Kysely<Database>, userId: string): Promise<number> {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Marks the given notifications (already authorized as the reader's) or all of the reader's as read;
 * ones already read keep their first read time. When any changed, records `notification.read` in the
 * reader's room so their other tabs and devices update the bell. Answers how many changed.
 */
export async function markNotificationsRead(
  trx: Kysely<Database>,
  reader: UserRow,
  request: MarkNotificationsReadRequest,
): Promise<number> {
  let update = trx
    .updateTable('notifications')
    .set({ read_at: now() })
    .where('user_id', '=', reader.id)
    .where('read_at', 'is', null);
  if (request.ids) update = update.where('id', 'in', request.ids);
  const result = await update.executeTakeFirst();
  const marked = Number(result.numUpdatedRows);
  if (marked > 0) {
    const payload: NotificationsReadPayload = {
      ids: request.ids ?? null,
      unreadCount: await unreadCount(trx, reader.id),
    };
    await recordEvent(trx, {
      room: userRoom(reader.id),
      type: NotificationEventName.read,
      payload,
      actorId: reader.id,
    });
  }
  return marked;
}
