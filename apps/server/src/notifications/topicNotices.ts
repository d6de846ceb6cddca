import { NotificationKind } from '@btalk/contracts';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/index.ts';
import { reusable } from '../db/reusable.ts';
import type { CommentRow, PostRow, TopicRow, UserRow } from '../db/schema.ts';
import type { NewDomainEvent } from '../events/eventLog.ts';
import { directParticipantIds, visibilityOf } from '../policies/topic.ts';
import { conversationTitle } from '../presenters/conversation.ts';
import { type Notice, notify, writeNotifications } from './notifier.ts';
import { type Change, type Recipient, recipientsFor, type TopicAudienceMember } from './rules.ts';

/** How long the excerpt of a post or comment in a notification is. */
const EXCERPT_LENGTH = 160;

/** The first words of a post's Markdown as plain text: mentions as `@Name`, no markup. */
export function excerptOf(markdown: string): string {
  const text = markdown
    .replace(/@\[([^\]\n]{1,200})\]\(user:[A-Za-z0-9-]{1,64}\)/g, '@$1')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/[*_~`>#|]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > EXCERPT_LENGTH ? `${text.slice(0, EXCERPT_LENGTH - 1)}…` : text;
}

/** The members, the level choosers and the candidates of a topic, each with their account's state. */
const audienceRows = reusable((trx: Kysely<Database>, topicId: string, candidates: string[]) => {
  let people = trx
    .selectFrom('topic_members')
    .select(['user_id', sql<number>`1`.as('member'), sql<string | null>`null`.as('level')])
    .where('topic_id', '=', topicId)
    .unionAll(
      trx
        .selectFrom('topic_notification_levels')
        .select(['user_id', sql<number>`0`.as('member'), 'level'])
        .where('topic_id', '=', topicId),
    );
  for (let i = 0; i < candidates.length; i += 5000) {
    const chunk = candidates.slice(i, i + 5000);
    people = people.unionAll(
      trx
        .selectFrom('users')
        .select(['id as user_id', sql<number>`0`.as('member'), sql<string | null>`null`.as('level')])
        .where('id', 'in', chunk),
    );
  }
  return trx
    .selectFrom(people.as('p'))
    .leftJoin('users as u', 'u.id', 'p.user_id')
    .select(['p.user_id', 'p.member', 'p.level', 'u.disabled']);
});

/**
 * Loads everyone a topic change may concern: the given people, the topic's members, and people who
 * chose a level for it, with whether they may see it now. One query (it was three in turn): the
 * three lists as a UNION ALL, each person's account joined for whether it is active.
 */
async function loadAudience(
  trx: Kysely<Database>,
  topic: TopicRow,
  candidates: string[],
): Promise<Map<string, TopicAudienceMember>> {
  const unique = [...new Set(candidates)];
  const rows = await audienceRows(trx, topic.id, unique);
  // Candidates first, in their order, then the members and level choosers as they come.
  const seen = new Map<string, { member: boolean; level: string | null; active: boolean }>();
  for (const userId of unique) seen.set(userId, { member: false, level: null, active: false });
  for (const row of rows) {
    const entry = seen.get(row.user_id) ?? { member: false, level: null, active: false };
    if (Number(row.member) === 1) entry.member = true;
    if (row.level !== null) entry.level = row.level;
    entry.active = row.disabled !== null && Number(row.disabled) === 0;
    seen.set(row.user_id, entry);
  }
  const audience = new Map<string, TopicAudienceMember>();
  for (const [userId, { member, level, active }] of seen) {
    audience.set(userId, {
      userId,
      member,
      canSee: active && (topic.visibility === 'organisation' || member),
      chosenLevel: level as TopicAudienceMember['chosenLevel'],
    });
  }
  return audience;
}

const titles: Record<string, (actor: string, topic: string) => string> = {
  [NotificationKind.mention]: (actor, topic) => `${actor} mentioned you in ${topic}`,
  [NotificationKind.comment]: (actor, topic) => `${actor} commented on a post in ${topic}`,
  [NotificationKind.post]: (actor, topic) => `${actor} posted in ${topic}`,
  [NotificationKind.topicAdded]: (actor, topic) => `${actor} added you to ${topic}`,
  [NotificationKind.direct]: (actor) => `${actor} sent you a message`,
};

/** The title a notice shows: a direct conversation's is its people's names, derived now. */
export async function titleOf(trx: Kysely<Database>, topic: TopicRow): Promise<string> {
  const ids = directParticipantIds(topic);
  if (!ids) return topic.title;
  const rows = await trx.selectFrom('users').select(['id', 'display_name']).where('id', 'in', ids).execute();
  return conversationTitle(rows.map((r) => r.display_name));
}

/** Turns recipients into notices about a topic, a post and maybe a comment. */
function noticesFor(
  recipients: Recipient[],
  actor: UserRow,
  topic: TopicRow,
  topicTitle: string,
  about: { post?: PostRow; comment?: CommentRow; text?: string },
): Notice[] {
  const excerpt = about.text === undefined ? '' : excerptOf(about.text);
  const data = {
    topicId: topic.id,
    topicTitle,
    actorId: actor.id,
    actorName: actor.display_name,
    ...(about.post ? { postId: about.post.id, postNumber: Number(about.post.number) } : {}),
    ...(about.comment ? { commentId: about.comment.id } : {}),
    excerpt,
  };
  return recipients.map((r) => ({
    userId: r.userId,
    kind: r.kind,
    urgent: r.urgent,
    title: titles[r.kind]?.(actor.display_name, topicTitle) ?? topicTitle,
    body: excerpt,
    data,
    topicId: topic.id,
    postId: about.post?.id ?? null,
    commentId: about.comment?.id ?? null,
  }));
}

/** Who is to be told of a change in a topic, and the topic's title as they see it. */
export interface TopicNoticePlan {
  recipients: Recipient[];
  topicTitle: string;
}

/**
 * The reads of a change's notifications (the topic's audience, their choices, a conversation's
 * title), done before the change's post or comment is final, so that a command can write the
 * notifications among its last statements (`writeTopicNotices`).
 */
export async function planTopicNotices(
  trx: Kysely<Database>,
  topic: TopicRow,
  change: Exclude<Change, { type: 'calltree' }>,
): Promise<TopicNoticePlan> {
  // The stored visibility of a direct conversation is `members`; the rules tell its people apart.
  if ('visibility' in change) change = { ...change, visibility: visibilityOf(topic) };
  const candidates =
    change.type === 'member.added'
      ? change.addedIds
      : change.type === 'post.edited'
        ? change.newlyMentioned
        : change.type === 'comment.created'
          ? [...change.mentioned, ...change.bellRinging]
          : change.mentioned;
  // A new comment or an edit concerns only the people it names; no need to load the whole topic.
  const audience =
    change.type === 'post.created' || candidates.length > 0
      ? await loadAudience(trx, topic, candidates)
      : new Map<string, TopicAudienceMember>();
  const recipients = recipientsFor(change, audience);
  return { recipients, topicTitle: recipients.length === 0 ? topic.title : await titleOf(trx, topic) };
}

/** Writes the planned notifications and returns their events, for the command to record with its own. */
export async function writeTopicNotices(
  trx: Kysely<Database>,
  plan: TopicNoticePlan,
  actor: UserRow,
  topic: TopicRow,
  about: { post?: PostRow; comment?: CommentRow; text?: string },
  at: string,
): Promise<NewDomainEvent[]> {
  if (plan.recipients.length === 0) return [];
  return writeNotifications(
    trx,
    noticesFor(plan.recipients, actor, topic, plan.topicTitle, about),
    at,
    actor.id,
  );
}

/** Decides and writes the notifications of a change in a topic, in the caller's transaction. */
export async function notifyTopicChange(
  trx: Kysely<Database>,
  actor: UserRow,
  topic: TopicRow,
  change: Exclude<Change, { type: 'calltree' }>,
  about: { post?: PostRow; comment?: CommentRow; text?: string },
  at: string,
): Promise<void> {
  const plan = await planTopicNotices(trx, topic, change);
  if (plan.recipients.length === 0) return;
  await notify(trx, noticesFor(plan.recipients, actor, topic, plan.topicTitle, about), at, actor.id);
}
