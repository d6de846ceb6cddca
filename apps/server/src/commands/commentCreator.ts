import {
  type CreateCommentRequest,
  EventName,
  MAX_DISTINCT_REACTIONS,
  type ReactionEmoji,
  topicRoom,
  type UpdateCommentRequest,
} from '@btalk/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { CommentRow, PostRow, TopicRow, UserRow } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { newId, now } from '../ids.ts';
import { withdrawNotifications } from '../notifications/notifier.ts';
import { notifyTopicChange } from '../notifications/topicNotices.ts';
import { loadPeople, personFrom } from '../presenters/person.ts';
import { presentCommentBases } from '../presenters/post.ts';
import { indexDocument, removeDocument } from '../search/searchIndex.ts';
import { requestHash, sameRequestOrConflict } from './idempotency.ts';
import { insertMentions, resolveMentions, ringBellsByDefault, storeMentions } from './mentions.ts';
import { keepRevision } from './revisions.ts';
import { recordTopicEvent } from './topicEvents.ts';

/** Makes a comment findable (its post's number leads to it). */
function indexComment(trx: Kysely<Database>, comment: CommentRow): Promise<void> {
  return indexDocument(trx, {
    kind: 'comment',
    refId: comment.id,
    topicId: comment.topic_id,
    postId: comment.post_id,
    authorId: comment.author_id,
    body: comment.body,
    createdAt: comment.created_at,
  });
}

/**
 * Writes a comment under a post (one level of replies): counts it on the post, stores mentions and
 * rings the post's bell for the people mentioned, notifies them and everyone whose bell on the post
 * rings, indexes it for search, records `comment.created`. The same client-made
 * id again answers the first comment.
 */
export async function commentCreator(
  trx: Kysely<Database>,
  actor: UserRow,
  topic: TopicRow,
  post: PostRow,
  input: CreateCommentRequest,
): Promise<CommentRow> {
  const hash = requestHash({ postId: post.id, body: input.body, mentions: [...input.mentions].sort() });
  const existing = await trx
    .selectFrom('comments')
    .selectAll()
    .where('author_id', '=', actor.id)
    .where('client_id', '=', input.clientId)
    .executeTakeFirst();
  if (existing) {
    sameRequestOrConflict(existing.request_hash, hash, 'comment');
    return existing;
  }
  const mentions = await resolveMentions(trx, topic, input.body, input.mentions);
  const at = now();
  const comment = await trx
    .insertInto('comments')
    .values({
      id: newId(),
      post_id: post.id,
      topic_id: topic.id,
      author_id: actor.id,
      client_id: input.clientId,
      request_hash: hash,
      body: input.body,
      edited_at: null,
      deleted_at: null,
      deleted_by: null,
      created_at: at,
      updated_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const { comment_count } = await trx
    .updateTable('posts')
    .set((eb) => ({ comment_count: eb('comment_count', '+', 1) }))
    .where('id', '=', post.id)
    .returning('comment_count')
    .executeTakeFirstOrThrow();
  await trx.updateTable('topics').set({ last_activity_at: at }).where('id', '=', topic.id).execute();
  await insertMentions(trx, comment.id, post.id, mentions);
  await ringBellsByDefault(trx, post.id, mentions, at);
  const ringing = await trx
    .selectFrom('post_bells')
    .select('user_id')
    .where('post_id', '=', post.id)
    .where('ringing', '=', 1)
    .execute();
  await notifyTopicChange(
    trx,
    actor,
    topic,
    {
      type: 'comment.created',
      authorId: actor.id,
      visibility: topic.visibility,
      mentioned: mentions,
      bellRinging: ringing.map((b) => b.user_id),
    },
    { post, comment, text: input.body },
    at,
  );
  await indexComment(trx, comment);
  const [base] = await presentCommentBases(trx, [comment]);
  await recordTopicEvent(
    trx,
    topicRoom(topic.id),
    { type: EventName.commentCreated, payload: { comment: base!, commentCount: Number(comment_count) } },
    actor.id,
  );
  return comment;
}

/** The author changes a comment's text; the text it replaces is kept in its history. */
export async function commentEditor(
  trx: Kysely<Database>,
  actor: UserRow,
  topic: TopicRow,
  comment: CommentRow,
  input: UpdateCommentRequest,
): Promise<CommentRow> {
  const mentions = await resolveMentions(trx, topic, input.body, input.mentions);
  const at = now();
  await keepRevision(trx, actor, { kind: 'comment', id: comment.id }, at);
  const edited = await trx
    .updateTable('comments')
    .set({ body: input.body, edited_at: at, updated_at: at })
    .where('id', '=', comment.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  const added = await storeMentions(trx, comment.id, comment.post_id, mentions);
  await ringBellsByDefault(trx, comment.post_id, added, at);
  if (added.length > 0) {
    const post = await trx
      .selectFrom('posts')
      .selectAll()
      .where('id', '=', comment.post_id)
      .executeTakeFirstOrThrow();
    await notifyTopicChange(
      trx,
      actor,
      topic,
      { type: 'post.edited', authorId: actor.id, visibility: topic.visibility, newlyMentioned: added },
      { post, comment: edited, text: input.body },
      at,
    );
  }
  await indexComment(trx, edited);
  const [base] = await presentCommentBases(trx, [edited]);
  await recordTopicEvent(
    trx,
    topicRoom(topic.id),
    { type: EventName.commentEdited, payload: { comment: base! } },
    actor.id,
  );
  return edited;
}

/** Deletes a comment: a placeholder stays, its text and history are erased. */
export async function commentDeleter(
  trx: Kysely<Database>,
  actor: UserRow,
  topic: TopicRow,
  comment: CommentRow,
): Promise<void> {
  const at = now();
  await trx
    .updateTable('comments')
    .set({ body: '', deleted_at: at, deleted_by: actor.id, updated_at: at })
    .where('id', '=', comment.id)
    .execute();
  // Its earlier texts go with the text.
  await trx.deleteFrom('comment_revisions').where('comment_id', '=', comment.id).execute();
  await withdrawNotifications(trx, { commentId: comment.id }, actor.id);
  await removeDocument(trx, comment.id);
  const { comment_count } = await trx
    .updateTable('posts')
    .set((eb) => ({ comment_count: eb('comment_count', '-', 1) }))
    .where('id', '=', comment.post_id)
    .returning('comment_count')
    .executeTakeFirstOrThrow();
  await recordTopicEvent(
    trx,
    topicRoom(topic.id),
    {
      type: EventName.commentDeleted,
      payload: {
        topicId: topic.id,
        postId: comment.post_id,
        commentId: comment.id,
        deletedAt: at,
        commentCount: Number(comment_count),
      },
    },
    actor.id,
  );
}

/** What a reaction is given to: a post, or a comment under it. */
export interface ReactionTarget {
  topic: TopicRow;
  post: PostRow;
  comment: CommentRow | null;
}

/**
 * Adds the person's reaction. The same client-made id again answers the same reaction (another
 * emoji or target with it is a 409); the same emoji again under a new id answers the existing one.
 */
export async function reactionAdder(
  trx: Kysely<Database>,
  actor: UserRow,
  target: ReactionTarget,
  clientId: string,
  emoji: ReactionEmoji,
) {
  const targetId = target.comment?.id ?? target.post.id;
  const byClientId = await trx
    .selectFrom('reactions')
    .selectAll()
    .where('user_id', '=', actor.id)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  if (byClientId) {
    if (byClientId.target_id !== targetId || byClientId.emoji !== emoji) {
      throw new AppError(
        'conflict',
        'This clientId was already used for a different reaction: make a new clientId.',
      );
    }
    return byClientId;
  }
  const same = await trx
    .selectFrom('reactions')
    .selectAll()
    .where('target_id', '=', targetId)
    .where('user_id', '=', actor.id)
    .where('emoji', '=', emoji)
    .executeTakeFirst();
  if (same) return same;
  // A cap on different emojis keeps a post's summary small (any emoji may be given since the full
  // picker); concurrent adds may pass it by a few, which is harmless.
  const kinds = await trx
    .selectFrom('reactions')
    .select((eb) => eb.fn.count<number>('emoji').distinct().as('n'))
    .where('target_id', '=', targetId)
    .executeTakeFirstOrThrow();
  if (Number(kinds.n) >= MAX_DISTINCT_REACTIONS) {
    const inUse = await trx
      .selectFrom('reactions')
      .select('emoji')
      .where('target_id', '=', targetId)
      .where('emoji', '=', emoji)
      .executeTakeFirst();
    if (!inUse) {
      throw new AppError(
        'conflict',
        `This already has ${MAX_DISTINCT_REACTIONS} different reactions: add yours to one of them.`,
      );
    }
  }
  const reaction = await trx
    .insertInto('reactions')
    .values({
      id: newId(),
      topic_id: target.topic.id,
      post_id: target.post.id,
      comment_id: target.comment?.id ?? null,
      target_id: targetId,
      user_id: actor.id,
      client_id: clientId,
      emoji,
      created_at: now(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await recordReactionEvent(trx, EventName.reactionAdded, actor, target, emoji);
  return reaction;
}

/** Records that a person's reaction was added or taken back, in the topic's room. */
async function recordReactionEvent(
  trx: Kysely<Database>,
  type: typeof EventName.reactionAdded | typeof EventName.reactionRemoved,
  actor: UserRow,
  target: ReactionTarget,
  emoji: ReactionEmoji,
): Promise<void> {
  const person = personFrom(await loadPeople(trx, [actor.id]), actor.id);
  const payload = {
    topicId: target.topic.id,
    postId: target.post.id,
    commentId: target.comment?.id ?? null,
    emoji,
    person,
  };
  await recordTopicEvent(trx, topicRoom(target.topic.id), { type, payload }, actor.id);
}

/** Takes the person's reaction back; answers whether there was one. */
export async function reactionRemover(
  trx: Kysely<Database>,
  actor: UserRow,
  target: ReactionTarget,
  emoji: ReactionEmoji,
): Promise<boolean> {
  const result = await trx
    .deleteFrom('reactions')
    .where('target_id', '=', target.comment?.id ?? target.post.id)
    .where('user_id', '=', actor.id)
    .where('emoji', '=', emoji)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) return false;
  await recordReactionEvent(trx, EventName.reactionRemoved, actor, target, emoji);
  return true;
}
