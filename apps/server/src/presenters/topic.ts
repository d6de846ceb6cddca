import type { Person, Topic, TopicBase } from '@btalk/contracts';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/index.ts';
import type { TopicRow } from '../db/schema.ts';
import { decodeCursor, pageOf } from '../http/cursor.ts';
import { defaultLevel } from '../notifications/rules.ts';
import { contentAbilities } from '../policies/post.ts';
import {
  DEFAULT_TOPIC_RULES,
  directParticipantIds,
  type TopicRules,
  topicAbilities,
  type Viewer,
  visibilityOf,
} from '../policies/topic.ts';
import { conversationTitle, loadParticipantsOf, participantsOf } from './conversation.ts';

/** The viewer's read marker in a `selectTopics` row: 0 before they read anything. */
const lastRead = sql<number>`coalesce(rs.last_read_number, 0)`;

/**
 * Topics with what the presenters need: the creator, and the viewer's membership, follow, read
 * marker and unread count (posts by others after the marker, not deleted). The count comes from the
 * topic's counter: posts are numbered 1..post_count and never removed, and the marker never passes
 * post_count, so the posts after it are post_count - marker; taken from them are the viewer's own
 * live posts and the deleted ones after the marker, each counted through a partial index
 * (migration 20261125120000), so Home's cost does not grow with the size of its topics.
 */
export function selectTopics(db: Kysely<Database>, viewerId: string) {
  return db
    .selectFrom('topics')
    .innerJoin('users as creator', 'creator.id', 'topics.creator_id')
    .leftJoin('topic_members as me', (j) =>
      j.onRef('me.topic_id', '=', 'topics.id').on('me.user_id', '=', viewerId),
    )
    .leftJoin('topic_follows as f', (j) =>
      j.onRef('f.topic_id', '=', 'topics.id').on('f.user_id', '=', viewerId),
    )
    .leftJoin('topic_notification_levels as nl', (j) =>
      j.onRef('nl.topic_id', '=', 'topics.id').on('nl.user_id', '=', viewerId),
    )
    .leftJoin('read_states as rs', (j) =>
      j.onRef('rs.topic_id', '=', 'topics.id').on('rs.user_id', '=', viewerId),
    )
    .selectAll('topics')
    .select([
      'creator.display_name as creator_name',
      'creator.email as creator_email',
      'creator.department as creator_department',
      'me.role as my_role',
      'me.created_at as my_since',
      'f.user_id as followed_by',
      'rs.last_read_number as last_read_number',
      'nl.level as my_notification_level',
      sql<number>`topics.post_count - ${lastRead}
        - (select count(*) from posts own where own.topic_id = topics.id and own.author_id = ${viewerId}
            and own.deleted_at is null and own.number > ${lastRead})
        - (select count(*) from posts gone where gone.topic_id = topics.id
            and gone.deleted_at is not null and gone.number > ${lastRead})`.as('unread_count'),
    ]);
}

/** A row of `selectTopics`. */
export type TopicViewRow = Awaited<ReturnType<ReturnType<typeof selectTopics>['executeTakeFirstOrThrow']>>;

/**
 * The parts of a topic that everyone sees (also the realtime payload). A direct conversation's
 * participants come from `people` (`loadParticipantsOf`), and its title is their names.
 */
export function presentTopicBase(row: TopicViewRow, people: Map<string, Person> = new Map()): TopicBase {
  const participantIds = directParticipantIds(row);
  const participants = participantIds ? participantsOf(participantIds, people) : null;
  return {
    id: row.id,
    title: participants ? conversationTitle(participants.map((p) => p.displayName)) : row.title,
    description: row.description,
    visibility: visibilityOf(row),
    coverColor: row.cover_color,
    coverEmoji: row.cover_emoji,
    creator: {
      id: row.creator_id,
      displayName: row.creator_name,
      email: row.creator_email,
      department: row.creator_department,
    },
    archivedAt: row.archived_at,
    memberCount: Number(row.member_count),
    postCount: Number(row.post_count),
    lastActivityAt: row.last_activity_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(participants ? { participants } : {}),
  };
}

/** Topics as the viewer sees them, with the people of the direct conversations among them loaded. */
export async function presentTopics(
  db: Kysely<Database>,
  viewer: Viewer,
  rows: TopicViewRow[],
  rules: TopicRules = DEFAULT_TOPIC_RULES,
): Promise<Topic[]> {
  const people = await loadParticipantsOf(db, rows);
  return rows.map((row) => presentTopic(viewer, row, people, rules));
}

/** The column a list of topics is ordered by: newest activity, or most recently archived (the archive). */
export type ActivityColumn = 'last_activity_at' | 'archived_at';

/**
 * `selectTopics` rows newest first by `by` (the topic list's and the conversation list's order),
 * after the row `[afterAt, afterId]` when given, at most `limit`. For a reusable query: the cursor's
 * values are arguments.
 */
export function byActivity(
  query: ReturnType<typeof selectTopics>,
  by: ActivityColumn,
  afterAt: string | undefined,
  afterId: string | undefined,
  limit: number,
) {
  const column = `topics.${by}` as const;
  if (afterAt !== undefined && afterId !== undefined) {
    query = query.where((eb) =>
      eb.or([eb(column, '<', afterAt), eb.and([eb(column, '=', afterAt), eb('topics.id', '<', afterId)])]),
    );
  }
  return query.orderBy(column, 'desc').orderBy('topics.id', 'desc').limit(limit);
}

/**
 * One page of a list of topics ordered `byActivity`, after the list's opaque cursor: `rowsAfter`
 * reads the rows (after the cursor's row, at most the count given), then the page is presented,
 * with the next page's cursor.
 */
export async function topicPageByActivity(
  db: Kysely<Database>,
  viewer: Viewer,
  rowsAfter: (after: [string, string] | undefined, count: number) => Promise<TopicViewRow[]>,
  cursor: string | undefined,
  limit: number,
  /** `archived_at` for the archive (only archived topics in `query`: the column is never null there). */
  by: ActivityColumn = 'last_activity_at',
  rules: TopicRules = DEFAULT_TOPIC_RULES,
): Promise<{ items: Topic[]; nextCursor: string | null }> {
  const after = decodeCursor<[string, string]>(cursor, ['timestamp', 'string']) ?? undefined;
  const rows = await rowsAfter(after, limit + 1);
  return pageOf(
    rows,
    limit,
    (r) => [r[by] ?? r.last_activity_at, r.id],
    (kept) => presentTopics(db, viewer, kept, rules),
  );
}

/** The topic row of a view row (for the policies). */
export function topicRowOf(row: TopicViewRow): TopicRow {
  const {
    creator_name: _n,
    creator_email: _e,
    creator_department: _d,
    my_role: _r,
    my_since: _s,
    followed_by: _f,
    last_read_number: _l,
    unread_count: _u,
    ...topic
  } = row;
  return topic;
}

/** A topic as the viewer sees it, with their membership, reading and abilities. */
export function presentTopic(
  viewer: Viewer,
  row: TopicViewRow,
  people?: Map<string, Person>,
  rules: TopicRules = DEFAULT_TOPIC_RULES,
): Topic {
  const membership = row.my_role
    ? {
        topic_id: row.id,
        user_id: viewer.id,
        role: row.my_role,
        added_by: null,
        created_at: row.my_since ?? '',
      }
    : null;
  const access = { topic: topicRowOf(row), membership };
  return {
    ...presentTopicBase(row, people),
    myRole: row.my_role,
    following: membership !== null || row.followed_by !== null,
    notificationLevel: row.my_notification_level ?? defaultLevel(visibilityOf(row), membership !== null),
    unreadCount: Number(row.unread_count ?? 0),
    lastReadNumber: Number(row.last_read_number ?? 0),
    abilities: { ...topicAbilities(viewer, access, rules), ...contentAbilities(viewer, access) },
  };
}
