import {
  type Comment,
  type CommentBase,
  type Person,
  type Post,
  type PostBase,
  REACTION_EMOJIS,
  type ReactionEmoji,
  type ReactionSummary,
} from '@btalk/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { CommentRow, PostRow } from '../db/schema.ts';
import { commentAbilities, postAbilities } from '../policies/post.ts';
import type { TopicAccess, Viewer } from '../policies/topic.ts';
import { presentAttachment } from './attachment.ts';
import { loadPeople, personFrom } from './person.ts';

interface ReactionLite {
  target_id: string;
  user_id: string;
  emoji: string;
}

function summarise(reactions: ReactionLite[], people: Map<string, Person>): ReactionSummary[] {
  return REACTION_EMOJIS.flatMap((emoji) => {
    const who = reactions.filter((r) => r.emoji === emoji);
    if (who.length === 0) return [];
    return [
      {
        emoji: emoji as ReactionEmoji,
        count: who.length,
        people: who.map((r) => personFrom(people, r.user_id)),
      },
    ];
  });
}

function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = map.get(k);
    if (list) list.push(row);
    else map.set(k, [row]);
  }
  return map;
}

/** Mentions and reactions of posts or comments (by target id), and everyone they name. */
async function loadExtras(db: Kysely<Database>, targetIds: string[], authorIds: string[]) {
  const [mentions, reactions] = await Promise.all([
    db.selectFrom('mentions').select(['target_id', 'user_id']).where('target_id', 'in', targetIds).execute(),
    db
      .selectFrom('reactions')
      .select(['target_id', 'user_id', 'emoji'])
      .where('target_id', 'in', targetIds)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
  ]);
  const people = await loadPeople(db, [
    ...authorIds,
    ...mentions.map((m) => m.user_id),
    ...reactions.map((r) => r.user_id),
  ]);
  return {
    people,
    mentions: groupBy(mentions, (m) => m.target_id),
    reactions: groupBy(reactions, (r) => r.target_id),
  };
}

/** Posts as everyone sees them, in the order given, with a few queries for the whole page. */
export async function presentPostBases(db: Kysely<Database>, rows: PostRow[]): Promise<PostBase[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [extras, attachments] = await Promise.all([
    loadExtras(
      db,
      ids,
      rows.map((r) => r.author_id),
    ),
    db
      .selectFrom('attachments')
      .selectAll()
      .where('post_id', 'in', ids)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
  ]);
  const files = groupBy(attachments, (a) => a.post_id ?? '');
  return rows.map((row) => {
    const deleted = row.deleted_at !== null;
    return {
      id: row.id,
      clientId: row.client_id,
      topicId: row.topic_id,
      number: Number(row.number),
      author: personFrom(extras.people, row.author_id),
      body: deleted ? '' : row.body,
      mentions: deleted
        ? []
        : (extras.mentions.get(row.id) ?? []).map((m) => personFrom(extras.people, m.user_id)),
      attachments: deleted ? [] : (files.get(row.id) ?? []).map(presentAttachment),
      reactions: deleted ? [] : summarise(extras.reactions.get(row.id) ?? [], extras.people),
      commentCount: Number(row.comment_count),
      pinnedAt: row.pinned_at,
      editedAt: row.edited_at,
      deletedAt: row.deleted_at,
      createdAt: row.created_at,
    };
  });
}

/** Posts as the viewer sees them: with their bell and abilities. */
export async function presentPosts(
  db: Kysely<Database>,
  viewer: Viewer,
  access: TopicAccess,
  rows: PostRow[],
): Promise<Post[]> {
  if (rows.length === 0) return [];
  const [bases, bells] = await Promise.all([
    presentPostBases(db, rows),
    db
      .selectFrom('post_bells')
      .select(['post_id', 'ringing'])
      .where('user_id', '=', viewer.id)
      .where(
        'post_id',
        'in',
        rows.map((r) => r.id),
      )
      .execute(),
  ]);
  const ringing = new Set(bells.filter((b) => Number(b.ringing) === 1).map((b) => b.post_id));
  return bases.map((base, i) => ({
    ...base,
    bell: ringing.has(base.id) ? 'ring' : 'off',
    abilities: postAbilities(viewer, access, rows[i]!),
  }));
}

/** Comments as everyone sees them, in the order given. */
export async function presentCommentBases(db: Kysely<Database>, rows: CommentRow[]): Promise<CommentBase[]> {
  if (rows.length === 0) return [];
  const extras = await loadExtras(
    db,
    rows.map((r) => r.id),
    rows.map((r) => r.author_id),
  );
  return rows.map((row) => {
    const deleted = row.deleted_at !== null;
    return {
      id: row.id,
      clientId: row.client_id,
      postId: row.post_id,
      topicId: row.topic_id,
      author: personFrom(extras.people, row.author_id),
      body: deleted ? '' : row.body,
      mentions: deleted
        ? []
        : (extras.mentions.get(row.id) ?? []).map((m) => personFrom(extras.people, m.user_id)),
      reactions: deleted ? [] : summarise(extras.reactions.get(row.id) ?? [], extras.people),
      editedAt: row.edited_at,
      deletedAt: row.deleted_at,
      createdAt: row.created_at,
    };
  });
}

/** Comments as the viewer sees them, with their abilities. */
export async function presentComments(
  db: Kysely<Database>,
  viewer: Viewer,
  access: TopicAccess,
  post: PostRow,
  rows: CommentRow[],
): Promise<Comment[]> {
  const bases = await presentCommentBases(db, rows);
  return bases.map((base, i) => ({ ...base, abilities: commentAbilities(viewer, access, post, rows[i]!) }));
}
