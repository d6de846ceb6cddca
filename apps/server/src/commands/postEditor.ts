import { EventName, topicRoom, type UpdatePostRequest, userRoom } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { PostRow, TopicRow, UserRow } from '../db/schema.ts';
import { now } from '../ids.ts';
import { withdrawNotifications } from '../notifications/notifier.ts';
import { notifyTopicChange } from '../notifications/topicNotices.ts';
import { presentPostBases } from '../presenters/post.ts';
import { indexDocument, removeDocument } from '../search/searchIndex.ts';
import { resolveMentions, ringBellsByDefault, storeMentions } from './mentions.ts';
import { keepRevision } from './revisions.ts';
import { recordTopicEvent } from './topicEvents.ts';

/**
 * The author changes a post's text ("edited"); the text it replaces is kept in its history. Newly
 * mentioned people get the bell on and are told (nobody else is notified again).
 */
export async function postEditor(
  trx: Kysely<Database>,
  actor: UserRow,
  topic: TopicRow,
  post: PostRow,
  input: UpdatePostRequest,
): Promise<PostRow> {
  const mentions = await resolveMentions(trx, topic, input.body, input.mentions);
  const at = now();
  await keepRevision(trx, actor, { kind: 'post', id: post.id }, at);
  const edited = await trx
    .updateTable('posts')
    .set({ body: input.body, edited_at: at, updated_at: at })
    .where('id', '=', post.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  const added = await storeMentions(trx, post.id, post.id, mentions);
  await ringBellsByDefault(trx, post.id, added, at);
  await notifyTopicChange(
    trx,
    actor,
    topic,
    { type: 'post.edited', authorId: actor.id, visibility: topic.visibility, newlyMentioned: added },
    { post: edited, text: input.body },
    at,
  );
  await indexDocument(trx, {
    kind: 'post',
    refId: post.id,
    topicId: topic.id,
    postId: post.id,
    authorId: post.author_id,
    body: input.body,
    createdAt: post.created_at,
  });
  const [base] = await presentPostBases(trx, [edited]);
  await recordTopicEvent(
    trx,
    topicRoom(topic.id),
    { type: EventName.postEdited, payload: { post: base! } },
    actor.id,
  );
  return edited;
}

/**
 * Deletes a post: it stays as a placeholder (its number and comments keep their place), its text
 * and its history are erased, it leaves the search index, and its files are removed. Answers the
 * storage keys of the files, to delete from the file storage once the transaction has committed.
 */
export async function postDeleter(
  trx: Kysely<Database>,
  actor: UserRow,
  topic: TopicRow,
  post: PostRow,
): Promise<string[]> {
  const at = now();
  await trx
    .updateTable('posts')
    .set({ body: '', deleted_at: at, deleted_by: actor.id, pinned_at: null, pinned_by: null, updated_at: at })
    .where('id', '=', post.id)
    .execute();
  const files = await trx
    .selectFrom('attachments')
    .select('storage_key')
    .where('post_id', '=', post.id)
    .execute();
  await trx.deleteFrom('attachments').where('post_id', '=', post.id).execute();
  // Its earlier texts go with the text: a deleted post keeps no words.
  await trx.deleteFrom('post_revisions').where('post_id', '=', post.id).execute();
  await removeDocument(trx, post.id);
  await withdrawNotifications(trx, { postId: post.id }, actor.id);
  await recordTopicEvent(
    trx,
    topicRoom(topic.id),
    { type: EventName.postDeleted, payload: { topicId: topic.id, postId: post.id, deletedAt: at } },
    actor.id,
  );
  return files.map((f) => f.storage_key);
}

/** A topic owner pins or unpins a post. */
export async function postPinner(
  trx: Kysely<Database>,
  actor: UserRow,
  topic: TopicRow,
  post: PostRow,
  pinned: boolean,
): Promise<PostRow> {
  if ((post.pinned_at !== null) === pinned) return post;
  const at = now();
  const row = await trx
    .updateTable('posts')
    .set({ pinned_at: pinned ? at : null, pinned_by: pinned ? actor.id : null, updated_at: at })
    .where('id', '=', post.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await recordTopicEvent(
    trx,
    topicRoom(topic.id),
    { type: EventName.postPinned, payload: { topicId: topic.id, postId: post.id, pinnedAt: row.pinned_at } },
    actor.id,
  );
  return row;
}

/** Sets the person's bell on a post: ring = notify me of new comments, off = don't. */
export async function bellRinger(
  trx: Kysely<Database>,
  actor: UserRow,
  post: PostRow,
  bell: 'ring' | 'off',
): Promise<void> {
  const at = now();
  const ringing = bell === 'ring' ? 1 : 0;
  await trx
    .insertInto('post_bells')
    .values({ post_id: post.id, user_id: actor.id, ringing, updated_at: at })
    .onConflict((oc) => oc.columns(['post_id', 'user_id']).doUpdateSet({ ringing, updated_at: at }))
    .execute();
  await recordTopicEvent(
    trx,
    userRoom(actor.id),
    { type: EventName.myBellChanged, payload: { topicId: post.topic_id, postId: post.id, bell } },
    actor.id,
  );
}
