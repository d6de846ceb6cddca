import { CallTreeEventName } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import { newId } from '../ids.ts';
import { insertInChunks, recordEventsInChunks } from './bulk.ts';

/** An in-app notification to write. */
export interface InAppNotice {
  userId: string;
  /** e.g. `calltree.started`, `calltree.escalation`, `calltree.reminder`. */
  kind: string;
  title: string;
  body: string;
  /** Ids the client needs to open the thing. */
  data: Record<string, unknown>;
}

/**
 * Writes in-app notifications (a `notifications` row each) and a `notification.created` domain event
 * in each person's room `user:<id>`, in the caller's transaction, so that the realtime stream pushes
 * them. Teams, push and e-mail delivery belong to the notifications work and read the same rows.
 */
export async function notifyInApp(
  trx: Kysely<Database>,
  notices: InAppNotice[],
  at: string,
  actorId: string | null,
): Promise<void> {
  if (notices.length === 0) return;
  const rows = notices.map((n) => ({
    id: newId(),
    user_id: n.userId,
    kind: n.kind,
    title: n.title,
    body: n.body,
    data: JSON.stringify(n.data),
    created_at: at,
    read_at: null,
  }));
  await insertInChunks(trx, 'notifications', rows);
  await recordEventsInChunks(
    trx,
    rows.map((r, i) => ({
      room: `user:${r.user_id}`,
      type: CallTreeEventName.notification,
      payload: {
        id: r.id,
        kind: r.kind,
        title: r.title,
        body: r.body,
        data: notices[i]!.data,
        createdAt: at,
      },
      actorId,
    })),
  );
}
