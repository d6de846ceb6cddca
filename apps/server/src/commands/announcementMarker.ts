import { type AnnouncementRequest, EventName, NotificationKind, topicRoom } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import { type AuditClient, audit } from '../audit/audit.ts';
import { insertInChunks } from '../calltree/bulk.ts';
import type { Database } from '../db/index.ts';
import type { AnnouncementRow, PostRow, TopicRow, UserRow } from '../db/schema.ts';
import { AppError, invalid } from '../http/errors.ts';
import { type Notice, notify } from '../notifications/notifier.ts';
import { excerptOf, titleOf } from '../notifications/topicNotices.ts';
import { presentAnnouncement } from '../presenters/announcement.ts';
import { recordTopicEvent } from './topicEvents.ts';

/** The target of an announcement command: the post, its topic, and the request when there is one. */
export interface AnnouncementTarget {
  topic: TopicRow;
  post: PostRow;
}

/** The post's request, or null when it is not marked. */
export async function loadAnnouncement(
  db: Kysely<Database>,
  postId: string,
): Promise<AnnouncementRow | null> {
  return (
    (await db.selectFrom('announcements').selectAll().where('post_id', '=', postId).executeTakeFirst()) ??
    null
  );
}

/** The post's request; 409 when the post is not (or no longer) marked important, or was deleted. */
export async function requireAnnouncement(
  db: Kysely<Database>,
  post: Pick<PostRow, 'id' | 'deleted_at'>,
): Promise<AnnouncementRow> {
  const row = post.deleted_at === null ? await loadAnnouncement(db, post.id) : null;
  if (!row) throw new AppError('conflict', 'This post does not ask for an acknowledgement (any more).');
  return row;
}

/**
 * Everyone who may read the topic now and is enabled, but the author: every enabled person for an
 * organisation-wide topic, the enabled members of a members-only one. One query.
 */
async function audienceOf(trx: Kysely<Database>, topic: TopicRow, authorId: string): Promise<string[]> {
  const rows =
    topic.visibility === 'organisation'
      ? await trx
          .selectFrom('users')
          .select('id')
          .where('disabled', '=', 0)
          .where('id', '!=', authorId)
          .execute()
      : await trx
          .selectFrom('topic_members as m')
          .innerJoin('users as u', 'u.id', 'm.user_id')
          .select('u.id')
          .where('m.topic_id', '=', topic.id)
          .where('u.disabled', '=', 0)
          .where('u.id', '!=', authorId)
          .execute();
  return rows.map((r) => r.id);
}

/** The ISO time of a due time as sent, normalised; 400 `body.dueAt` unless it is in the future. */
function dueAtOf(request: AnnouncementRequest, at: Date, current: string | null): string | null {
  if (request.dueAt === null) return null;
  const due = new Date(request.dueAt);
  // A change that keeps the due time already set is not refused for it having passed since.
  if (current !== null && due.getTime() === Date.parse(current)) return current;
  if (!(due.getTime() > at.getTime())) throw invalid('body.dueAt', 'must be in the future');
  return due.toISOString();
}

/** When the automatic reminder is due: `minutes` after marking; null without one. */
function remindAtOf(markedAt: string, minutes: number | null): string | null {
  return minutes === null ? null : new Date(Date.parse(markedAt) + minutes * 60_000).toISOString();
}

/**
 * Notices of an important post (or a reminder of it) for the given people, through the notification
 * outbox (chunked writes: 10,000 people are a few statements).
 */
export async function notifyAudience(
  trx: Kysely<Database>,
  kind: NotificationKind,
  request: Pick<AnnouncementRow, 'urgent' | 'due_at'>,
  target: AnnouncementTarget,
  author: Pick<UserRow, 'id' | 'display_name'>,
  userIds: string[],
  at: string,
  actorId: string | null,
): Promise<void> {
  if (userIds.length === 0) return;
  const topicTitle = await titleOf(trx, target.topic);
  const urgent = Number(request.urgent) === 1;
  const reminder = kind === NotificationKind.announcementReminder;
  const title = reminder
    ? `Reminder: please acknowledge a post in ${topicTitle}`
    : `Important: ${topicTitle}`;
  const body = excerptOf(target.post.body);
  const data = {
    topicId: target.topic.id,
    topicTitle,
    postId: target.post.id,
    number: Number(target.post.number),
    dueAt: request.due_at,
    urgent,
    actorId: author.id,
    actorName: author.display_name,
  };
  const notices: Notice[] = userIds.map((userId) => ({
    userId,
    kind,
    urgent,
    title,
    body,
    data,
    topicId: target.topic.id,
    postId: target.post.id,
  }));
  await notify(trx, notices, at, actorId);
}

/**
 * Marks the author's post important, or changes its request (urgent, due time, reminder delay). The
 * first mark snapshots the audience (everyone enabled who may read the post now, but the author) into
 * `announcement_recipients` and tells each of them (a notice of kind `post.announcement`); a change
 * tells nobody again. Records `announcement.marked` and audits. The caller authorized the author.
 */
export async function markAnnouncement(
  trx: Kysely<Database>,
  author: UserRow,
  target: AnnouncementTarget,
  request: AnnouncementRequest,
  client: AuditClient | null,
  now: Date = new Date(),
): Promise<AnnouncementRow> {
  const at = now.toISOString();
  const { topic, post } = target;
  const current = await loadAnnouncement(trx, post.id);
  const dueAt = dueAtOf(request, now, current?.due_at ?? null);
  // What the audit says of the request, whether it is new or changed.
  const asked = {
    topicId: topic.id,
    urgent: request.urgent,
    dueAt,
    remindAfterMinutes: request.remindAfterMinutes,
  };
  let row: AnnouncementRow;
  if (current) {
    row = await trx
      .updateTable('announcements')
      .set({
        urgent: request.urgent ? 1 : 0,
        due_at: dueAt,
        remind_after_minutes: request.remindAfterMinutes,
        remind_at: remindAtOf(current.marked_at, request.remindAfterMinutes),
      })
      .where('post_id', '=', post.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await audit(trx, {
      actorId: author.id,
      action: 'announcement.changed',
      target: `post:${post.id}`,
      details: asked,
      client,
    });
  } else {
    const audience = await audienceOf(trx, topic, author.id);
    await trx
      .insertInto('announcements')
      .values({
        post_id: post.id,
        topic_id: topic.id,
        author_id: author.id,
        marked_at: at,
        urgent: request.urgent ? 1 : 0,
        due_at: dueAt,
        remind_after_minutes: request.remindAfterMinutes,
        remind_at: remindAtOf(at, request.remindAfterMinutes),
        auto_reminded_at: null,
        reminded_at: null,
        audience: audience.length,
        seen_count: 0,
        acknowledged_count: 0,
        changes: 0,
        emitted_changes: 0,
      })
      .execute();
    await insertInChunks(
      trx,
      'announcement_recipients',
      audience.map((userId) => ({
        post_id: post.id,
        user_id: userId,
        added_at: at,
        seen_at: null,
        acknowledged_at: null,
      })),
    );
    row = (await loadAnnouncement(trx, post.id))!;
    await audit(trx, {
      actorId: author.id,
      action: 'announcement.marked',
      target: `post:${post.id}`,
      details: { ...asked, audience: audience.length },
      client,
    });
    await notifyAudience(trx, NotificationKind.announcement, row, target, author, audience, at, author.id);
  }
  await recordTopicEvent(
    trx,
    topicRoom(topic.id),
    {
      type: EventName.announcementMarked,
      payload: { topicId: topic.id, postId: post.id, announcement: presentAnnouncement(row) },
    },
    author.id,
  );
  return row;
}

/**
 * Takes a post's request back (the author, the topic's owners, admins): the request and its audience's
 * rows go. Records `announcement.marked` with null and audits. 409 when the post is not marked.
 */
export async function unmarkAnnouncement(
  trx: Kysely<Database>,
  actor: UserRow,
  target: AnnouncementTarget,
  client: AuditClient | null,
): Promise<void> {
  const { topic, post } = target;
  const row = await loadAnnouncement(trx, post.id);
  if (!row) throw new AppError('conflict', 'This post does not ask for an acknowledgement.');
  await trx.deleteFrom('announcement_recipients').where('post_id', '=', post.id).execute();
  await trx.deleteFrom('announcements').where('post_id', '=', post.id).execute();
  await audit(trx, {
    actorId: actor.id,
    action: 'announcement.unmarked',
    target: `post:${post.id}`,
    details: {
      topicId: topic.id,
      acknowledged: Number(row.acknowledged_count),
      audience: Number(row.audience),
    },
    client,
  });
  await recordTopicEvent(
    trx,
    topicRoom(topic.id),
    {
      type: EventName.announcementMarked,
      payload: { topicId: topic.id, postId: post.id, announcement: null },
    },
    actor.id,
  );
}

/**
 * The people of a request who have not acknowledged it and may still read the post: enabled, and
 * still members of a members-only topic.
 */
export async function notYetAcknowledged(
  trx: Kysely<Database>,
  topic: Pick<TopicRow, 'id' | 'visibility'>,
  postId: string,
): Promise<string[]> {
  let query = trx
    .selectFrom('announcement_recipients as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select('r.user_id')
    .where('r.post_id', '=', postId)
    .where('r.acknowledged_at', 'is', null)
    .where('u.disabled', '=', 0);
  if (topic.visibility !== 'organisation') {
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('topic_members as m')
          .select('m.user_id')
          .whereRef('m.user_id', '=', 'r.user_id')
          .where('m.topic_id', '=', topic.id),
      ),
    );
  }
  const rows = await query.execute();
  return rows.map((r) => r.user_id);
}
