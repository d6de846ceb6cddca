import type {
  Announcement,
  Comment,
  CommentBase,
  Person,
  Post,
  PostBase,
  ReactionSummary,
} from '@btalk/contracts';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/index.ts';
import { reusable } from '../db/reusable.ts';
import type { AttachmentRow, CommentRow, PostRow } from '../db/schema.ts';
import { commentAbilities, postAbilities } from '../policies/post.ts';
import type { TopicAccess, Viewer } from '../policies/topic.ts';
import { loadPostAnnouncements, type PostAnnouncements } from './announcement.ts';
import { presentAttachment } from './attachment.ts';
import { personFrom, presentPerson } from './person.ts';

/** Which part of `loadExtras` a row answers. */
type ExtraPart = 'mention' | 'reaction' | 'author';

interface ReactionLite {
  target_id: string;
  user_id: string;
  emoji: string;
}

/** Reactions by emoji, each emoji where it was first given (`reactions` come in the order made). */
function summarise(reactions: ReactionLite[], people: Map<string, Person>): ReactionSummary[] {
  const byEmoji = groupBy(reactions, (r) => r.emoji);
  return [...byEmoji].map(([emoji, who]) => ({
    emoji,
    count: who.length,
    people: who.map((r) => personFrom(people, r.user_id)),
  }));
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

const extrasRows = reusable((db: Kysely<Database>, targetIds: string[], authorIds: string[]) => {
  const person = ['u.id as user_id', 'u.display_name', 'u.email', 'u.department'] as const;
  return db
    .selectFrom('mentions as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select([
      sql<ExtraPart>`'mention'`.as('part'),
      sql<string | null>`m.target_id`.as('target_id'),
      ...person,
      sql<string | null>`null`.as('emoji'),
      sql<string | null>`null`.as('at'),
      sql<string | null>`null`.as('reaction_id'),
    ])
    .where('m.target_id', 'in', targetIds)
    .unionAll(
      db
        .selectFrom('reactions as r')
        .innerJoin('users as u', 'u.id', 'r.user_id')
        .select([
          sql<ExtraPart>`'reaction'`.as('part'),
          sql<string | null>`r.target_id`.as('target_id'),
          ...person,
          sql<string | null>`r.emoji`.as('emoji'),
          sql<string | null>`r.created_at`.as('at'),
          sql<string | null>`r.id`.as('reaction_id'),
        ])
        .where('r.target_id', 'in', targetIds),
    )
    .unionAll(
      db
        .selectFrom('users as u')
        .select([
          sql<ExtraPart>`'author'`.as('part'),
          sql<string | null>`null`.as('target_id'),
          ...person,
          sql<string | null>`null`.as('emoji'),
          sql<string | null>`null`.as('at'),
          sql<string | null>`null`.as('reaction_id'),
        ])
        .where('u.id', 'in', authorIds),
    )
    .orderBy('at')
    .orderBy('reaction_id')
    .orderBy('target_id')
    .orderBy('user_id');
});

/**
 * Mentions and reactions of posts or comments (by target id), and everyone they name, with the
 * authors: one query (a page used to take three, one after the other). Reactions in the order they
 * were made; mentions by person id, as their key orders them.
 */
async function loadExtras(db: Kysely<Database>, targetIds: string[], authorIds: string[]) {
  const rows = await extrasRows(db, targetIds, authorIds);
  const people = new Map<string, Person>();
  const mentions: ReactionLite[] = [];
  const reactions: ReactionLite[] = [];
  for (const row of rows) {
    people.set(row.user_id, presentPerson({ ...row, id: row.user_id }));
    const item = { target_id: row.target_id ?? '', user_id: row.user_id, emoji: row.emoji ?? '' };
    if (row.part === 'mention') mentions.push(item);
    else if (row.part === 'reaction') reactions.push(item);
  }
  return {
    people,
    mentions: groupBy(mentions, (m) => m.target_id),
    reactions: groupBy(reactions, (r) => r.target_id),
  };
}

const filesOf = reusable((db: Kysely<Database>, postIds: string[]) =>
  db
    .selectFrom('attachments')
    .selectAll()
    .where('post_id', 'in', postIds)
    .orderBy('created_at')
    .orderBy('id'),
);

const bellsOf = reusable((db: Kysely<Database>, userId: string, postIds: string[]) =>
  db
    .selectFrom('post_bells')
    .select(['post_id', 'ringing'])
    .where('user_id', '=', userId)
    .where('post_id', 'in', postIds),
);

/** Posts as everyone sees them, in the order given, with a few queries for the whole page. */
export async function presentPostBases(db: Kysely<Database>, rows: PostRow[]): Promise<PostBase[]> {
  return (await presentPostBasesFor(db, rows, null)).bases;
}

/**
 * Posts as everyone sees them, and the viewer's acknowledgements of the important ones among them
 * (the announcements' query answers both).
 */
async function presentPostBasesFor(
  db: Kysely<Database>,
  rows: PostRow[],
  viewerId: string | null,
): Promise<{ bases: PostBase[]; announcements: PostAnnouncements }> {
  if (rows.length === 0)
    return { bases: [], announcements: { requests: new Map(), acknowledged: new Map() } };
  const ids = rows.map((r) => r.id);
  const [extras, attachments, announcements] = await Promise.all([
    loadExtras(
      db,
      ids,
      rows.map((r) => r.author_id),
    ),
    filesOf(db, ids),
    loadPostAnnouncements(db, ids, viewerId),
  ]);
  const files = groupBy(attachments, (a) => a.post_id ?? '');
  const bases = rows.map((row) =>
    postBase(row, {
      author: personFrom(extras.people, row.author_id),
      mentions: (extras.mentions.get(row.id) ?? []).map((m) => personFrom(extras.people, m.user_id)),
      attachments: files.get(row.id) ?? [],
      reactions: summarise(extras.reactions.get(row.id) ?? [], extras.people),
      announcement: announcements.requests.get(row.id) ?? null,
    }),
  );
  return { bases, announcements };
}

/**
 * A post as everyone sees it, from its row and its parts (mentions by person id, files in the order
 * uploaded, reactions in the order given): a deleted post shows none of them.
 */
export function postBase(
  row: PostRow,
  parts: {
    author: Person;
    mentions: Person[];
    attachments: AttachmentRow[];
    reactions: ReactionSummary[];
    announcement: Announcement | null;
  },
): PostBase {
  const deleted = row.deleted_at !== null;
  return {
    id: row.id,
    clientId: row.client_id,
    topicId: row.topic_id,
    number: Number(row.number),
    author: parts.author,
    body: deleted ? '' : row.body,
    mentions: deleted ? [] : parts.mentions,
    attachments: deleted ? [] : parts.attachments.map(presentAttachment),
    reactions: deleted ? [] : parts.reactions,
    commentCount: Number(row.comment_count),
    pinnedAt: row.pinned_at,
    editedAt: row.edited_at,
    deletedAt: row.deleted_at,
    createdAt: row.created_at,
    // A deleted post asks nothing any more (its request goes with a hard delete only).
    announcement: deleted ? null : parts.announcement,
  };
}

/**
 * Posts as the viewer sees them: with their bell, acknowledgement and abilities. `ringing`: the
 * posts whose bell rings for the viewer, when read already (the topic page reads them with its page).
 */
export async function presentPosts(
  db: Kysely<Database>,
  viewer: Viewer,
  access: TopicAccess,
  rows: PostRow[],
  ringing?: Set<string>,
): Promise<Post[]> {
  if (rows.length === 0) return [];
  const ringingBells = async () =>
    ringing ??
    new Set(
      (
        await bellsOf(
          db,
          viewer.id,
          rows.map((r) => r.id),
        )
      )
        .filter((b) => Number(b.ringing) === 1)
        .map((b) => b.post_id),
    );
  const [{ bases, announcements }, bells] = await Promise.all([
    presentPostBasesFor(db, rows, viewer.id),
    ringingBells(),
  ]);
  return bases.map((base, i) =>
    postAsSeenBy(viewer, access, rows[i]!, base, {
      ringing: bells.has(base.id),
      acknowledgedAt: announcements.acknowledged.get(base.id) ?? null,
    }),
  );
}

/** A post as the viewer sees it, from the post as everyone sees it and the viewer's own state of it. */
export function postAsSeenBy(
  viewer: Viewer,
  access: TopicAccess,
  row: PostRow,
  base: PostBase,
  own: { ringing: boolean; acknowledgedAt: string | null },
): Post {
  return {
    ...base,
    bell: own.ringing ? 'ring' : 'off',
    acknowledgedAt: own.acknowledgedAt,
    abilities: postAbilities(viewer, access, row),
  };
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
