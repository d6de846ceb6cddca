import { randomInt } from 'node:crypto';
import { type CreatePostRequest, EventName, topicRoom } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import { recordEventsInChunks } from '../calltree/bulk.ts';
import type { Database } from '../db/index.ts';
import type { PostRow, TopicRow, UserRow } from '../db/schema.ts';
import { invalid } from '../http/errors.ts';
import { newId, now } from '../ids.ts';
import { planTopicNotices, writeTopicNotices } from '../notifications/topicNotices.ts';
import { presentPostBases } from '../presenters/post.ts';
import { indexDocument } from '../search/searchIndex.ts';
import { requestHash, sameRequestOrConflict } from './idempotency.ts';
import { resolveMentions, ringBellsByDefault, storeMentions } from './mentions.ts';
import { topicEvent } from './topicEvents.ts';

/** The post a client-made id already made, after checking the retry asks for the same thing. */
async function earlierPost(trx: Kysely<Database>, actor: UserRow, clientId: string, hash: string) {
  const existing = await trx
    .selectFrom('posts')
    .selectAll()
    .where('author_id', '=', actor.id)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  if (existing) sameRequestOrConflict(existing.request_hash, hash, 'post');
  return existing;
}

/**
 * Gives a new post the next number of its topic (gap-free: the counter is updated in the post's
 * transaction) and makes it the topic's latest activity.
 */
async function numberPost(
  trx: Kysely<Database>,
  topicId: string,
  draft: PostRow,
  at: string,
): Promise<PostRow> {
  const { post_count } = await trx
    .updateTable('topics')
    .set((eb) => ({ post_count: eb('post_count', '+', 1), last_activity_at: at }))
    .where('id', '=', topicId)
    .returning('post_count')
    .executeTakeFirstOrThrow();
  const number = Number(post_count);
  await trx.updateTable('posts').set({ number }).where('id', '=', draft.id).execute();
  return { ...draft, number };
}

/**
 * Writes a post: numbers it in its topic, takes in the author's uploaded files, stores mentions,
 * rings the bell of the author and the people mentioned, notifies (mentions, followers of the
 * topic), indexes it for search and records `post.created`. The same client-made id again answers the first post.
 */
export async function postCreator(
  trx: Kysely<Database>,
  actor: UserRow,
  topic: TopicRow,
  input: CreatePostRequest,
  maxFiles: number,
): Promise<PostRow> {
  const hash = requestHash({
    topicId: topic.id,
    body: input.body,
    mentions: [...input.mentions].sort(),
    attachmentIds: [...input.attachmentIds].sort(),
  });
  const existing = await earlierPost(trx, actor, input.clientId, hash);
  if (existing) return existing;

  const mentions = await resolveMentions(trx, topic, input.body, input.mentions);
  const fileIds = [...new Set(input.attachmentIds)];
  if (fileIds.length > maxFiles)
    throw invalid('body.attachmentIds', `attach at most ${maxFiles} files to a post`);
  if (fileIds.length > 0) {
    const waiting = await trx
      .selectFrom('attachments')
      .select('id')
      .where('id', 'in', fileIds)
      .where('topic_id', '=', topic.id)
      .where('uploader_id', '=', actor.id)
      .where('post_id', 'is', null)
      .execute();
    if (waiting.length !== fileIds.length) {
      throw invalid(
        'body.attachmentIds',
        'each id must be a file you uploaded to this topic and not yet posted',
      );
    }
  }

  const at = now();
  // The post gets its number last, just before its event is recorded: on PostgreSQL the topic's
  // counter is a row lock held until commit, and taking it first made every writer to the topic wait
  // for the whole of the previous writer's transaction. Until then the row carries a provisional
  // number below zero, which no committed post ever has.
  const draft = await trx
    .insertInto('posts')
    .values({
      id: newId(),
      topic_id: topic.id,
      author_id: actor.id,
      client_id: input.clientId,
      request_hash: hash,
      number: -randomInt(1, 2 ** 31 - 1),
      body: input.body,
      comment_count: 0,
      pinned_at: null,
      pinned_by: null,
      edited_at: null,
      deleted_at: null,
      deleted_by: null,
      created_at: at,
      updated_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  if (fileIds.length > 0) {
    // Still not in a post: the clean-up of unposted uploads may have removed one since the check.
    const taken = await trx
      .updateTable('attachments')
      .set({ post_id: draft.id })
      .where('id', 'in', fileIds)
      .where('post_id', 'is', null)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) !== fileIds.length) {
      throw invalid('body.attachmentIds', 'a file was removed before it was posted: upload it again');
    }
  }
  await storeMentions(trx, draft.id, draft.id, mentions);
  await ringBellsByDefault(trx, draft.id, [actor.id, ...mentions], at);
  // Posts with files and no text are indexed too: the "has file" filter finds them.
  await indexDocument(trx, {
    kind: 'post',
    refId: draft.id,
    topicId: topic.id,
    postId: draft.id,
    authorId: actor.id,
    hasFile: fileIds.length > 0,
    body: input.body,
    createdAt: at,
  });
  // The reads first: who is told, and the post as its event shows it (its number filled in below).
  const notices = await planTopicNotices(trx, topic, {
    type: 'post.created',
    authorId: actor.id,
    visibility: topic.visibility,
    mentioned: mentions,
  });
  const [draftBase] = await presentPostBases(trx, [draft]);
  // Then what other writers wait for, as the transaction's last statements: the topic's counter (on
  // PostgreSQL a row lock held until commit), the notifications that carry the number, and every
  // event of the post in one insert (the event log's lock, also held until commit).
  const post = await numberPost(trx, topic.id, draft, at);
  const noticeEvents = await writeTopicNotices(trx, notices, actor, topic, { post, text: input.body }, at);
  await recordEventsInChunks(trx, [
    ...noticeEvents,
    topicEvent(
      topicRoom(topic.id),
      { type: EventName.postCreated, payload: { post: { ...draftBase!, number: Number(post.number) } } },
      actor.id,
    ),
  ]);
  return post;
}
