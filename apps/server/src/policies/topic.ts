import type { TopicAbilities, TopicVisibility } from '@btalk/contracts';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/index.ts';
import { reusable } from '../db/reusable.ts';
import type { TopicMemberRow, TopicRow, UserRow } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';

/**
 * Who may see and do what with a topic, in one place. The rules:
 * - an organisation-wide topic is seen by everyone signed in; a members-only topic only by its
 *   members (not even admins: its existence does not leak, every route answers 404);
 * - owners and admins edit, archive and unarchive it; owners and admins manage members;
 * - whoever sees a topic that is not archived may post, comment and react in it;
 * - owners pin posts; members leave (the last owner cannot); anyone follows organisation-wide topics;
 * - a direct conversation is seen by its participants only (stored as members-only, so every rule
 *   that does not know of conversations keeps it to them); they post in it, and nobody, admins
 *   included, renames, archives, opens it up, or adds or removes its people.
 */
export interface TopicAccess {
  topic: TopicRow;
  /** The person's membership, or null. */
  membership: TopicMemberRow | null;
}

/** The person a policy asks about: their id and role are all the rules need. */
export type Viewer = Pick<UserRow, 'id' | 'role'>;

/** Whether a topic is a direct conversation. */
export function isDirect(topic: Pick<TopicRow, 'direct_key'>): boolean {
  return topic.direct_key !== null;
}

/** A direct conversation's participants' ids (from its key), or null for any other topic. */
export function directParticipantIds(topic: Pick<TopicRow, 'direct_key'>): string[] | null {
  return topic.direct_key === null ? null : topic.direct_key.split(',');
}

/** The visibility the API shows: `direct` for a conversation, else the stored one. */
export function visibilityOf(topic: Pick<TopicRow, 'visibility' | 'direct_key'>): TopicVisibility {
  return isDirect(topic) ? 'direct' : topic.visibility;
}

/** Whether the person may see a topic, given their membership (null when none). */
export function canSee(topic: Pick<TopicRow, 'visibility'>, membership: TopicMemberRow | null): boolean {
  return topic.visibility === 'organisation' || membership !== null;
}

/** Restricts a query that has `topics` in it to the topics a person may see. */
export function visibleTo(userId: string) {
  return sql<boolean>`(topics.visibility = 'organisation' or exists (select 1 from topic_members vm
    where vm.topic_id = topics.id and vm.user_id = ${userId}))`;
}

const topicAndMembership = reusable((db: Kysely<Database>, userId: string, topicId: string) =>
  db
    .selectFrom('topics')
    .leftJoin('topic_members as m', (j) =>
      j.onRef('m.topic_id', '=', 'topics.id').on('m.user_id', '=', userId),
    )
    .selectAll('topics')
    .select(['m.role as member_role', 'm.added_by as member_added_by', 'm.created_at as member_since'])
    .where('topics.id', '=', topicId),
);

/**
 * Loads a topic and the person's membership (one query: every page of a topic starts here); null
 * when it does not exist or the person may not see it.
 */
export async function loadTopicAccess(
  db: Kysely<Database>,
  viewer: Viewer,
  topicId: string,
): Promise<TopicAccess | null> {
  const [row] = await topicAndMembership(db, viewer.id, topicId);
  if (!row) return null;
  const { member_role, member_added_by, member_since, ...topic } = row;
  const membership: TopicMemberRow | null =
    member_role === null || member_since === null
      ? null
      : {
          topic_id: topic.id,
          user_id: viewer.id,
          role: member_role,
          added_by: member_added_by,
          created_at: member_since,
        };
  return canSee(topic, membership) ? { topic, membership } : null;
}

/** The topic the person may see, or a 404 that does not tell whether it exists. */
export async function requireVisibleTopic(
  db: Kysely<Database>,
  viewer: Viewer,
  topicId: string,
): Promise<TopicAccess> {
  const access = await loadTopicAccess(db, viewer, topicId);
  if (!access) throw new AppError('notFound', 'No such topic, or it is only for its members.');
  return access;
}

/** Whether a person may see a topic (for realtime room access). */
export async function canSeeTopic(db: Kysely<Database>, viewer: Viewer, topicId: string): Promise<boolean> {
  return (await loadTopicAccess(db, viewer, topicId)) !== null;
}

/** The ids of the organisation-wide topics: everyone signed in sees them (realtime needs no per-person query). */
export async function organisationTopicIds(db: Kysely<Database>): Promise<string[]> {
  const rows = await db.selectFrom('topics').select('id').where('visibility', '=', 'organisation').execute();
  return rows.map((r) => r.id);
}

/** The ids of the members-only topics a person may see: those they are a member of. */
export async function membersOnlyTopicIds(db: Kysely<Database>, viewer: Viewer): Promise<string[]> {
  const rows = await db
    .selectFrom('topics')
    .innerJoin('topic_members as m', 'm.topic_id', 'topics.id')
    .select('topics.id')
    .where('topics.visibility', '=', 'members')
    .where('m.user_id', '=', viewer.id)
    .execute();
  return rows.map((r) => r.id);
}

/** The people who may see a members-only topic: its members. */
export async function topicMemberIds(db: Kysely<Database>, topicId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('topic_members')
    .select('user_id')
    .where('topic_id', '=', topicId)
    .execute();
  return rows.map((r) => r.user_id);
}

/** The ids of every topic a person may see (for realtime room access). */
export async function visibleTopicIds(db: Kysely<Database>, viewer: Viewer): Promise<string[]> {
  const rows = await db.selectFrom('topics').select('topics.id').where(visibleTo(viewer.id)).execute();
  return rows.map((r) => r.id);
}

/**
 * What a person may do with a topic they can see (the topic's answer adds, from `post.ts`'s
 * `contentAbilities`, what they may do with its posts and comments).
 */
export type TopicRights = Omit<TopicAbilities, 'ownPost' | 'othersPost' | 'ownComment' | 'othersComment'>;

/** The server's settings the topic rules depend on (config). */
export interface TopicRules {
  /** ANNOUNCEMENT_AUTHORS: who may mark their posts important (issue 17). */
  announcementAuthors: 'owners' | 'everyone';
}

/** The rules without configuration: only owners and admins mark posts important. */
export const DEFAULT_TOPIC_RULES: TopicRules = { announcementAuthors: 'owners' };

/** What a person may do with a topic they can see. */
export function topicAbilities(
  viewer: Viewer,
  access: TopicAccess,
  rules: TopicRules = DEFAULT_TOPIC_RULES,
): TopicRights {
  const { topic, membership } = access;
  const open = topic.archived_at === null;
  const owner = membership?.role === 'owner';
  const admin = viewer.role === 'admin';
  if (isDirect(topic)) {
    const inside = membership !== null;
    return {
      edit: false,
      archive: false,
      manageMembers: false,
      post: open && inside,
      pin: false,
      leave: false,
      follow: false,
      announce: false,
      announcementReports: false,
    };
  }
  const post = open && canSee(topic, membership);
  return {
    edit: (owner || admin) && open,
    archive: owner || admin,
    manageMembers: (owner || admin) && open,
    post,
    pin: owner && open,
    leave: membership !== null,
    follow: topic.visibility === 'organisation',
    announce: post && (owner || admin || rules.announcementAuthors === 'everyone'),
    announcementReports: owner || admin,
  };
}

/** Something a person does with a topic they can see. */
export type TopicAction = keyof TopicRights;

const MANAGE_MEMBERS =
  'Only the topic’s owners and admins can manage its members (and not while it is archived).';

const DIRECT_KEEPS_ITS_PEOPLE =
  'A direct conversation keeps its people and its name: start a new conversation with the people you want.';

/** Why each action is refused in a direct conversation, as the person reads it. */
const REFUSED_DIRECT: Record<TopicAction, string> = {
  edit: DIRECT_KEEPS_ITS_PEOPLE,
  archive: 'A direct conversation cannot be archived.',
  manageMembers: DIRECT_KEEPS_ITS_PEOPLE,
  post: 'Only the people of this conversation can write in it.',
  pin: 'Posts are not pinned in a direct conversation.',
  leave: DIRECT_KEEPS_ITS_PEOPLE,
  follow: 'Direct conversations reach their own people only.',
  announce: 'Posts are not marked important in a direct conversation.',
  announcementReports: 'Posts are not marked important in a direct conversation.',
};

/** Why each action is refused, as the person reads it. */
const REFUSED: Record<TopicAction, (access: TopicAccess) => string> = {
  edit: (access) =>
    access.topic.archived_at
      ? 'This topic is archived: unarchive it first.'
      : 'Only the topic’s owners and admins can change it.',
  archive: () => 'Only the topic’s owners and admins can archive it.',
  manageMembers: () => MANAGE_MEMBERS,
  post: () => 'This topic is archived: it is read-only until an owner unarchives it.',
  pin: () => 'Only the topic’s owners can pin posts.',
  leave: () => MANAGE_MEMBERS,
  follow: () => 'Only organisation-wide topics can be followed; members-only topics reach their members.',
  announce: (access) =>
    access.topic.archived_at
      ? 'This topic is archived: it is read-only until an owner unarchives it.'
      : 'Only the topic’s owners and admins can mark posts important here.',
  announcementReports: () =>
    'Only the author, the topic’s owners and admins can see who has acknowledged an important post.',
};

/** Throws 403, saying why, unless the person may do `action` with the topic (see `topicAbilities`). */
export function authorize(
  viewer: Viewer,
  action: TopicAction,
  access: TopicAccess,
  rules: TopicRules = DEFAULT_TOPIC_RULES,
): void {
  if (!topicAbilities(viewer, access, rules)[action]) {
    throw new AppError(
      'forbidden',
      isDirect(access.topic) ? REFUSED_DIRECT[action] : REFUSED[action](access),
    );
  }
}
