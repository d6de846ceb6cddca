import { ANNOUNCEMENT_REMIND_AGAIN_MINUTES, NotificationKind } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import { type AuditClient, audit } from '../audit/audit.ts';
import type { Database } from '../db/index.ts';
import type { AnnouncementRow, UserRow } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import {
  type AnnouncementTarget,
  notifyAudience,
  notYetAcknowledged,
  requireAnnouncement,
} from './announcementMarker.ts';

const REMIND_AGAIN_MS = ANNOUNCEMENT_REMIND_AGAIN_MINUTES * 60_000;

/** Whether "remind again" may be used at `now`: not within 15 minutes of the last, and someone has not acknowledged. */
export function mayRemindAgain(row: AnnouncementRow, now: Date): boolean {
  const waited = row.reminded_at === null || Date.parse(row.reminded_at) + REMIND_AGAIN_MS <= now.getTime();
  return waited && Number(row.acknowledged_count) < Number(row.audience);
}

/**
 * The author's (or an owner's, an admin's) "remind again": notifies everyone who has not acknowledged
 * (kind `announcement.reminder`, urgent as the request). 409 with the reason when it was used less than
 * 15 minutes ago or everyone has acknowledged. The time is taken by a conditional update, so two
 * presses at once remind once. Audited.
 */
export async function remindAgain(
  trx: Kysely<Database>,
  actor: UserRow,
  target: AnnouncementTarget,
  client: AuditClient | null,
  now: Date = new Date(),
): Promise<{ reminded: number; remindedAt: string }> {
  const row = await requireAnnouncement(trx, target.post);
  const at = now.toISOString();
  const earliest = new Date(now.getTime() - REMIND_AGAIN_MS).toISOString();
  const tooSoon = () =>
    new AppError(
      'conflict',
      `A reminder went less than ${ANNOUNCEMENT_REMIND_AGAIN_MINUTES} minutes ago: remind again later.`,
    );
  if (row.reminded_at !== null && row.reminded_at > earliest) throw tooSoon();
  const people = await notYetAcknowledged(trx, target.topic, target.post.id);
  if (people.length === 0)
    throw new AppError('conflict', 'Everyone asked has acknowledged: nobody to remind.');
  const taken = await trx
    .updateTable('announcements')
    .set({ reminded_at: at })
    .where('post_id', '=', target.post.id)
    .where((eb) => eb.or([eb('reminded_at', 'is', null), eb('reminded_at', '<=', earliest)]))
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) !== 1) throw tooSoon();
  const author = await trx
    .selectFrom('users')
    .select(['id', 'display_name'])
    .where('id', '=', row.author_id)
    .executeTakeFirstOrThrow();
  await audit(trx, {
    actorId: actor.id,
    action: 'announcement.reminded',
    target: `post:${target.post.id}`,
    details: { topicId: target.topic.id, reminded: people.length },
    client,
  });
  await notifyAudience(trx, NotificationKind.announcementReminder, row, target, author, people, at, actor.id);
  return { reminded: people.length, remindedAt: at };
}

/**
 * The automatic reminder of one request whose time has come: sent once, whatever the number of
 * instances (a conditional update of `auto_reminded_at` takes it), to those who have not acknowledged.
 * A deleted post reminds nobody. Answers how many were reminded, or null when another run took it.
 */
export async function sendAutomaticReminder(
  trx: Kysely<Database>,
  postId: string,
  now: Date,
): Promise<number | null> {
  const at = now.toISOString();
  const taken = await trx
    .updateTable('announcements')
    .set({ auto_reminded_at: at })
    .where('post_id', '=', postId)
    .where('auto_reminded_at', 'is', null)
    .where('remind_at', '<=', at)
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) !== 1) return null;
  const row = await trx
    .selectFrom('announcements')
    .selectAll()
    .where('post_id', '=', postId)
    .executeTakeFirstOrThrow();
  const post = await trx.selectFrom('posts').selectAll().where('id', '=', postId).executeTakeFirstOrThrow();
  const topic = await trx
    .selectFrom('topics')
    .selectAll()
    .where('id', '=', post.topic_id)
    .executeTakeFirstOrThrow();
  if (post.deleted_at !== null) return 0;
  const people = await notYetAcknowledged(trx, topic, postId);
  const author = await trx
    .selectFrom('users')
    .select(['id', 'display_name'])
    .where('id', '=', row.author_id)
    .executeTakeFirstOrThrow();
  await audit(trx, {
    actorId: null,
    action: 'announcement.auto_reminded',
    target: `post:${postId}`,
    details: { topicId: topic.id, reminded: people.length },
    client: null,
  });
  await notifyAudience(
    trx,
    NotificationKind.announcementReminder,
    row,
    { topic, post },
    author,
    people,
    at,
    null,
  );
  return people.length;
}
