import { type AnnouncementTotals, EventName, userRoom } from '@btalk/contracts';
import type { DeleteQueryBuilder, DeleteResult, ExpressionBuilder, Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { AnnouncementRow, UserRow } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { requireVisiblePost } from '../policies/post.ts';
import { isDirect } from '../policies/topic.ts';
import { totalsOf } from '../presenters/announcement.ts';
import { requireAnnouncement } from './announcementMarker.ts';
import { recordTopicEvent } from './topicEvents.ts';

/** What an acknowledgement answers. */
export interface Acknowledgement {
  /** When the person acknowledged (the first time, for a second press). */
  acknowledgedAt: string;
  /** The counts after it. */
  totals: AnnouncementTotals;
  /** Whether they had acknowledged before (nothing changed). */
  already: boolean;
}

/**
 * Moves an announcement's counters by what one change did, late in the transaction (on PostgreSQL
 * the row stays locked until commit: only the event, if any, comes after it), and marks the change
 * for the progress emitter (`changes`).
 */
async function bumpCounters(
  trx: Kysely<Database>,
  postId: string,
  by: { audience?: number; seen?: number; acknowledged?: number },
): Promise<AnnouncementRow> {
  return trx
    .updateTable('announcements')
    .set((eb) => ({
      audience: eb('audience', '+', by.audience ?? 0),
      seen_count: eb('seen_count', '+', by.seen ?? 0),
      acknowledged_count: eb('acknowledged_count', '+', by.acknowledged ?? 0),
      changes: eb('changes', '+', 1),
    }))
    .where('post_id', '=', postId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * One person acknowledges an important post (the web's button, the Teams card, the push action): they
 * must see the post (404 otherwise, as `GET` says), it must still ask (409), and they must not be its
 * author (403). A reader who was not asked when it was marked (joined later) joins the audience.
 * Idempotent: a second press answers the first time and changes nothing. Records `me.acknowledged` in
 * the person's room; the counters move in the same transaction, and the progress emitter tells the
 * topic (`announcement.progress`) after commit.
 */
export async function acknowledgeAnnouncement(
  trx: Kysely<Database>,
  user: UserRow,
  postId: string,
  now: Date = new Date(),
): Promise<Acknowledgement> {
  const { access, post } = await requireVisiblePost(trx, user, postId);
  if (isDirect(access.topic)) {
    throw new AppError('conflict', 'This post does not ask for an acknowledgement (any more).');
  }
  const request = await requireAnnouncement(trx, post);
  if (post.author_id === user.id) {
    throw new AppError('forbidden', 'You wrote this post: its readers acknowledge it.');
  }
  const at = now.toISOString();
  // A reader not in the audience yet (joined the topic since it was marked) joins it now.
  const joined = await trx
    .insertInto('announcement_recipients')
    .values({ post_id: post.id, user_id: user.id, added_at: at, seen_at: at, acknowledged_at: at })
    .onConflict((oc) => oc.columns(['post_id', 'user_id']).doNothing())
    .executeTakeFirst();
  let by: { audience?: number; seen?: number; acknowledged?: number };
  if (Number(joined.numInsertedOrUpdatedRows ?? 0) === 1) {
    by = { audience: 1, seen: 1, acknowledged: 1 };
  } else {
    // Acknowledging counts as seen: each conditional update changes the row at most once.
    const seen = await trx
      .updateTable('announcement_recipients')
      .set({ seen_at: at })
      .where('post_id', '=', post.id)
      .where('user_id', '=', user.id)
      .where('seen_at', 'is', null)
      .executeTakeFirst();
    const acknowledged = await trx
      .updateTable('announcement_recipients')
      .set({ acknowledged_at: at })
      .where('post_id', '=', post.id)
      .where('user_id', '=', user.id)
      .where('acknowledged_at', 'is', null)
      .executeTakeFirst();
    if (Number(acknowledged.numUpdatedRows) === 0) {
      const first = await trx
        .selectFrom('announcement_recipients')
        .select('acknowledged_at')
        .where('post_id', '=', post.id)
        .where('user_id', '=', user.id)
        .executeTakeFirstOrThrow();
      return { acknowledgedAt: first.acknowledged_at ?? at, totals: totalsOf(request), already: true };
    }
    by = { seen: Number(seen.numUpdatedRows), acknowledged: 1 };
  }
  // The counters before the event: every announcement command locks the request's row before the
  // event log's lock (recordEvent), so two of them never wait on each other in a circle.
  const row = await bumpCounters(trx, post.id, by);
  await recordTopicEvent(
    trx,
    userRoom(user.id),
    {
      type: EventName.myAcknowledged,
      payload: { topicId: post.topic_id, postId: post.id, acknowledgedAt: at },
    },
    user.id,
  );
  return { acknowledgedAt: at, totals: totalsOf(row), already: false };
}

/**
 * Important posts that were on the person's screen: sets `seen_at` the first time for their rows of
 * those posts. Posts they were not asked about are ignored (no error, nothing told).
 */
export async function recordAnnouncementsSeen(
  trx: Kysely<Database>,
  user: Pick<UserRow, 'id'>,
  postIds: string[],
  now: Date = new Date(),
): Promise<number> {
  const ids = [...new Set(postIds)];
  const first = await trx
    .updateTable('announcement_recipients')
    .set({ seen_at: now.toISOString() })
    .where('user_id', '=', user.id)
    .where('post_id', 'in', ids)
    .where('seen_at', 'is', null)
    .returning('post_id')
    .execute();
  // The counters last, in one order (two people's transactions never wait on each other in a circle).
  for (const postId of first.map((r) => r.post_id).sort()) await bumpCounters(trx, postId, { seen: 1 });
  return first.length;
}

type RecipientsDelete = DeleteQueryBuilder<Database, 'announcement_recipients', DeleteResult>;

/**
 * Takes people out of important posts' audiences where they have not acknowledged (the rows `which`
 * picks), and moves each post's counters once. Acknowledgements stay, as the record they are.
 */
async function leaveAudiences(trx: Kysely<Database>, which: (q: RecipientsDelete) => RecipientsDelete) {
  const left = await which(trx.deleteFrom('announcement_recipients').where('acknowledged_at', 'is', null))
    .returning(['post_id', 'seen_at'])
    .execute();
  const byPost = new Map<string, { audience: number; seen: number }>();
  for (const row of left) {
    const by = byPost.get(row.post_id) ?? { audience: 0, seen: 0 };
    by.audience -= 1;
    if (row.seen_at) by.seen -= 1;
    byPost.set(row.post_id, by);
  }
  // The counters last, in one order (as every announcement command: no two wait on each other in a circle).
  for (const postId of [...byPost.keys()].sort()) await bumpCounters(trx, postId, byPost.get(postId)!);
  return left.length;
}

/** The important posts of one topic, for `leaveAudiences`. */
const postsOfTopic = (topicId: string) => (eb: ExpressionBuilder<Database, 'announcement_recipients'>) =>
  eb.selectFrom('announcements').select('post_id').where('topic_id', '=', topicId);

/**
 * A person who may no longer read a members-only topic (they left, or were removed) leaves the
 * audience of its important posts they have not acknowledged: they are not asked any more (the
 * reminders and the pending list already go by who may read), and the author's roll-up stops
 * counting them as "not yet".
 */
export function leaveAnnouncementAudiences(trx: Kysely<Database>, topicId: string, userId: string) {
  return leaveAudiences(trx, (q) =>
    q.where('user_id', '=', userId).where('post_id', 'in', postsOfTopic(topicId)),
  );
}

/** A topic became members-only: everyone who is not a member leaves its important posts' audiences. */
export function narrowAnnouncementAudiences(trx: Kysely<Database>, topicId: string) {
  return leaveAudiences(trx, (q) =>
    q
      .where('post_id', 'in', postsOfTopic(topicId))
      .where('user_id', 'not in', (eb) =>
        eb.selectFrom('topic_members').select('user_id').where('topic_id', '=', topicId),
      ),
  );
}

/** A disabled person (left the organisation) leaves every audience they have not acknowledged. */
export function leaveEveryAnnouncementAudience(trx: Kysely<Database>, userId: string) {
  return leaveAudiences(trx, (q) => q.where('user_id', '=', userId));
}
