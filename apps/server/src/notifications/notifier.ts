import { NotificationEventName, type NotificationKind, userRoom } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import { insertInChunks, recordEventsInChunks } from '../calltree/bulk.ts';
import type { Database } from '../db/index.ts';
import type { NewDomainEvent } from '../events/eventLog.ts';
import { newId } from '../ids.ts';

/** A notification to write for one person. */
export interface Notice {
  userId: string;
  kind: NotificationKind;
  /** Urgent notifications (call tree) ignore mutes and quiet hours. */
  urgent: boolean;
  /** Title in English, for clients that do not know the kind (clients word known kinds themselves). */
  title: string;
  /** Text in English, likewise. */
  body: string;
  /** Ids and values clients need to word the notification and open the thing. */
  data: Record<string, unknown>;
  /** What it is about: deleting the post or comment withdraws it while unread. */
  topicId?: string | null;
  postId?: string | null;
  commentId?: string | null;
}

/**
 * Writes notifications into the outbox, in the caller's transaction, so that they exist if and only
 * if the change that caused them was committed: a `notifications` row each (the in-app list; the
 * delivery worker later turns undispatched rows into push, e-mail and Teams deliveries) and a
 * `notification.created` event in the person's room, which the realtime stream pushes to their bell.
 */
export async function notify(
  trx: Kysely<Database>,
  notices: Notice[],
  at: string,
  actorId: string | null,
): Promise<void> {
  await recordEventsInChunks(trx, await writeNotifications(trx, notices, at, actorId));
}

/**
 * Writes the `notifications` rows of `notify` and returns their `notification.created` events for
 * the caller to record, so that a command can record all of its events in its last statement: on
 * PostgreSQL recording takes the event log's lock, held until commit.
 */
export async function writeNotifications(
  trx: Kysely<Database>,
  notices: Notice[],
  at: string,
  actorId: string | null,
): Promise<NewDomainEvent[]> {
  if (notices.length === 0) return [];
  const rows = notices.map((n) => ({
    id: newId(),
    user_id: n.userId,
    kind: n.kind,
    title: n.title,
    body: n.body,
    data: JSON.stringify(n.data),
    created_at: at,
    read_at: null,
    topic_id: n.topicId ?? null,
    post_id: n.postId ?? null,
    comment_id: n.commentId ?? null,
    actor_id: actorId,
    urgent: n.urgent ? 1 : 0,
    dispatched_at: null,
  }));
  await insertInChunks(trx, 'notifications', rows);
  return rows.map((r, i) => ({
    room: userRoom(r.user_id),
    type: NotificationEventName.created,
    payload: {
      id: r.id,
      kind: r.kind,
      urgent: r.urgent === 1,
      title: r.title,
      body: r.body,
      data: notices[i]!.data,
      createdAt: at,
      readAt: null,
    },
    actorId,
  }));
}

/**
 * Takes back the unread notifications about a deleted post (and its comments) or comment: their rows
 * and pending deliveries go, and each person's bell is told. Read ones stay, as history.
 */
export async function withdrawNotifications(
  trx: Kysely<Database>,
  about: { postId: string } | { commentId: string },
  actorId: string | null,
): Promise<number> {
  let query = trx.selectFrom('notifications').select(['id', 'user_id']).where('read_at', 'is', null);
  query =
    'postId' in about
      ? query.where('post_id', '=', about.postId)
      : query.where('comment_id', '=', about.commentId);
  const rows = await query.execute();
  if (rows.length === 0) return 0;
  const ids = rows.map((r) => r.id);
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    // Their deliveries go with them (ON DELETE CASCADE, foreign keys are on in both engines).
    await trx.deleteFrom('notifications').where('id', 'in', chunk).execute();
  }
  const byUser = new Map<string, string[]>();
  for (const r of rows) byUser.set(r.user_id, [...(byUser.get(r.user_id) ?? []), r.id]);
  await recordEventsInChunks(
    trx,
    [...byUser].map(([userId, withdrawn]) => ({
      room: userRoom(userId),
      type: NotificationEventName.withdrawn,
      payload: { ids: withdrawn },
      actorId,
    })),
  );
  return rows.length;
}
