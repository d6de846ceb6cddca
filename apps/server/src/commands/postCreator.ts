import { randomInt } from 'node:crypto';
import { type CreatePostRequest, EventName, type Person, type PostBase, topicRoom } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import { recordEventsInChunks } from '../calltree/bulk.ts';
import { isPostgres } from '../db/engine.ts';
import type { Database } from '../db/index.ts';
import { reusable } from '../db/reusable.ts';
import type { AttachmentRow, PostRow, TopicRow, UserRow } from '../db/schema.ts';
import { invalid } from '../http/errors.ts';
import { newId, now } from '../ids.ts';
import { planTopicNotices, writeTopicNotices } from '../notifications/topicNotices.ts';
import { presentPerson } from '../presenters/person.ts';
import { postBase } from '../presenters/post.ts';
import { indexDocument } from '../search/searchIndex.ts';
import { requestHash, sameRequestOrConflict } from './idempotency.ts';
import { insertMentions, resolveMentionedPeople, ringBellsByDefault } from './mentions.ts';
import { topicEvent } from './topicEvents.ts';

/** The post a client-made id already made, after checking the retry asks for the same thing. */
async function earlierPost(trx: Kysely<Database>, actor: UserRow, clientId: string, hash: string) {
  const existing = await trx
    .selectFrom('posts')
    .selectAll()
    .where('author_id', '=', actor.id)
    .where('client_id', '=', clientId)
    .executeTakeFirstOrThrow();
  sameRequestOrConflict(existing.request_hash, hash, 'post');
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
  if (isPostgres(trx)) {
    // One round trip: the counter's update and the post's number in one statement.
    const [numbered] = await counterAndNumber(trx, topicId, at, draft.id);
    if (!numbered) throw new Error(`no topic ${topicId} to number a post in`);
    return { ...draft, number: Number(numbered.number) };
  }
  const [counted] = await countPost(trx, topicId, at);
  if (!counted) throw new Error(`no topic ${topicId} to number a post in`);
  const number = Number(counted.post_count);
  await setNumber(trx, number, draft.id);
  return { ...draft, number };
}

/** PostgreSQL: the topic's counter and the post's number in one statement. */
const counterAndNumber = reusable((trx: Kysely<Database>, topicId: string, at: string, postId: string) =>
  trx
    .with('counter', (db) =>
      db
        .updateTable('topics')
        .set((eb) => ({ post_count: eb('post_count', '+', 1), last_activity_at: at }))
        .where('id', '=', topicId)
        .returning('post_count'),
    )
    .updateTable('posts')
    .set((eb) => ({ number: eb.selectFrom('counter').select('post_count') }))
    .where('id', '=', postId)
    .returning('number'),
);

const countPost = reusable((trx: Kysely<Database>, topicId: string, at: string) =>
  trx
    .updateTable('topics')
    .set((eb) => ({ post_count: eb('post_count', '+', 1), last_activity_at: at }))
    .where('id', '=', topicId)
    .returning('post_count'),
);

const setNumber = reusable((trx: Kysely<Database>, number: number, postId: string) =>
  trx.updateTable('posts').set({ number }).where('id', '=', postId),
);

/**
 * A post written in this transaction as everyone sees it (`presentPostBases` of the same row reads
 * the same): its author, its mentions by person id, its files in the order uploaded, no reactions,
 * no comments and no acknowledgement request yet. Built from what the command holds, without
 * reading the post back.
 */
function newPostBase(post: PostRow, author: UserRow, mentioned: Person[], files: AttachmentRow[]): PostBase {
  return postBase(post, {
    author: presentPerson(author),
    mentions: [...mentioned].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
    attachments: [...files].sort((a, b) =>
      a.created_at !== b.created_at ? (a.created_at < b.created_at ? -1 : 1) : a.id < b.id ? -1 : 1,
    ),
    reactions: [],
    announcement: null,
  });
}

/** What `postCreator` wrote: the post, and as everyone sees it (null when it was written earlier). */
export interface CreatedPost {
  post: PostRow;
  base: PostBase | null;
}

/** Inserts a new post with a provisional number; nothing (no row) when its client-made id was used. */
const insertDraft = reusable(
  (
    trx: Kysely<Database>,
    id: string,
    topicId: string,
    authorId: string,
    clientId: string,
    hash: string,
    number: number,
    body: string,
    at: string,
  ) =>
    trx
      .insertInto('posts')
      .values({
        id,
        topic_id: topicId,
        author_id: authorId,
        client_id: clientId,
        request_hash: hash,
        number,
        body,
        comment_count: 0,
        pinned_at: null,
        pinned_by: null,
        edited_at: null,
        deleted_at: null,
        deleted_by: null,
        created_at: at,
        updated_at: at,
      })
      .onConflict((oc) => oc.columns(['author_id', 'client_id']).doNothing())
      .returningAll(),
);

/**
 * Writes a post: numbers it in its topic, takes in the author's uploaded files, stores mentions,
 * rings the bell of the author and the people mentioned, notifies (mentions, followers of the
 * topic), indexes it for search and records `post.created`. The same client-made id again answers
 * the first post (its `base` null: it is read as any post is).
 */
export async function postCreator(
  trx: Kysely<Database>,
  actor: UserRow,
  topic: TopicRow,
  input: CreatePostRequest,
  maxFiles: number,
): Promise<CreatedPost> {
  const hash = requestHash({
    topicId: topic.id,
    body: input.body,
    mentions: [...input.mentions].sort(),
    attachmentIds: [...input.attachmentIds].sort(),
  });
  const fileIds = [...new Set(input.attachmentIds)];
  if (fileIds.length > maxFiles)
    throw invalid('body.attachmentIds', `attach at most ${maxFiles} files to a post`);

  const at = now();
  // The insert comes first and finds a retry by its client-made id (no read before it): a retry
  // answers the first post even if what it names has changed since. The post gets its number last,
  // just before its event is recorded: on PostgreSQL the topic's counter is a row lock held until
  // commit, and taking it first made every writer to the topic wait for the whole of the previous
  // writer's transaction. Until then the row carries a provisional number below zero, which no
  // committed post ever has.
  const [draft] = await insertDraft(
    trx,
    newId(),
    topic.id,
    actor.id,
    input.clientId,
    hash,
    -randomInt(1, 2 ** 31 - 1),
    input.body,
    at,
  );
  if (!draft) return { post: await earlierPost(trx, actor, input.clientId, hash), base: null };

  const mentioned = await resolveMentionedPeople(trx, topic, input.body, input.mentions);
  const mentions = mentioned.map((p) => p.id);
  let files: AttachmentRow[] = [];
  if (fileIds.length > 0) {
    // Each a file the author uploaded to this topic and not yet in a post; taken in one statement.
    files = await trx
      .updateTable('attachments')
      .set({ post_id: draft.id })
      .where('id', 'in', fileIds)
      .where('topic_id', '=', topic.id)
      .where('uploader_id', '=', actor.id)
      .where('post_id', 'is', null)
      .returningAll()
      .execute();
    if (files.length !== fileIds.length) {
      throw invalid(
        'body.attachmentIds',
        'each id must be a file you uploaded to this topic and not yet posted',
      );
    }
  }
  await insertMentions(trx, draft.id, draft.id, mentions);
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
  // The reads first: who is told (the post as its event shows it is known without reading it).
  const notices = await planTopicNotices(trx, topic, {
    type: 'post.created',
    authorId: actor.id,
    visibility: topic.visibility,
    mentioned: mentions,
  });
  // Then what other writers wait for, as the transaction's last statements: the topic's counter (on
  // PostgreSQL a row lock held until commit), the notifications that carry the number, and every
  // event of the post in one insert (the event log's lock, also held until commit).
  const post = await numberPost(trx, topic.id, draft, at);
  const base = newPostBase(post, actor, mentioned, files);
  const noticeEvents = await writeTopicNotices(trx, notices, actor, topic, { post, text: input.body }, at);
  await recordEventsInChunks(trx, [
    ...noticeEvents,
    topicEvent(topicRoom(topic.id), { type: EventName.postCreated, payload: { post: base } }, actor.id),
  ]);
  return { post, base };
}
