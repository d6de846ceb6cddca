import type { Person } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import { reusable } from '../db/reusable.ts';
import type { TopicRow } from '../db/schema.ts';
import { invalid } from '../http/errors.ts';
import { presentPerson } from '../presenters/person.ts';

/** `@[Name](user:<id>)`: how the composer writes a mention into the Markdown. */
const MENTION = /@\[[^\]\n]{1,200}\]\(user:([A-Za-z0-9-]{1,64})\)/g;

/** The user ids mentioned in a text by `@[Name](user:<id>)` tokens, in order, once each. */
export function mentionedIds(body: string): string[] {
  return [...new Set([...body.matchAll(MENTION)].map((m) => m[1]!))];
}

/**
 * The people mentioned by tokens in `body` and by the explicit list: each must be an active person
 * who can see the topic (a members-only topic's non-members cannot be mentioned into it).
 */
export async function resolveMentions(
  trx: Kysely<Database>,
  topic: TopicRow,
  body: string,
  explicit: string[],
): Promise<string[]> {
  return (await resolveMentionedPeople(trx, topic, body, explicit)).map((p) => p.id);
}

/** `resolveMentions` with each person as others see them (a new post's event shows them). */
export async function resolveMentionedPeople(
  trx: Kysely<Database>,
  topic: TopicRow,
  body: string,
  explicit: string[],
): Promise<Person[]> {
  const ids = [...new Set([...mentionedIds(body), ...explicit])].slice(0, 50);
  if (ids.length === 0) return [];
  const people = await trx
    .selectFrom('users')
    .select(['id', 'display_name', 'email', 'department'])
    .where('id', 'in', ids)
    .where('disabled', '=', 0)
    .execute();
  const known = new Map(people.map((p) => [p.id, presentPerson(p)]));
  const unknown = ids.find((id) => !known.has(id));
  if (unknown)
    throw invalid('body.mentions', `no active person has the id ${unknown}: pick people from the directory`);
  if (topic.visibility === 'members') {
    const members = await trx
      .selectFrom('topic_members')
      .select('user_id')
      .where('topic_id', '=', topic.id)
      .where('user_id', 'in', ids)
      .execute();
    const inside = new Set(members.map((m) => m.user_id));
    const outsider = ids.find((id) => !inside.has(id));
    if (outsider) {
      throw invalid(
        'body.mentions',
        topic.direct_key !== null
          ? `${outsider} is not in this conversation: start a conversation that includes them`
          : `${outsider} is not a member of this members-only topic: add them first`,
      );
    }
  }
  return ids.map((id) => known.get(id)!);
}

/** Replaces the mentions of a post or comment; returns who is newly mentioned. */
export async function storeMentions(
  trx: Kysely<Database>,
  targetId: string,
  postId: string,
  userIds: string[],
): Promise<string[]> {
  const before = await trx
    .selectFrom('mentions')
    .select('user_id')
    .where('target_id', '=', targetId)
    .execute();
  const had = new Set(before.map((m) => m.user_id));
  await trx.deleteFrom('mentions').where('target_id', '=', targetId).execute();
  await insertMentions(trx, targetId, postId, userIds);
  return userIds.filter((id) => !had.has(id));
}

/** Stores the mentions of a post or comment written in this transaction (it has none yet). */
export async function insertMentions(
  trx: Kysely<Database>,
  targetId: string,
  postId: string,
  userIds: string[],
): Promise<void> {
  if (userIds.length === 0) return;
  await mentionRows(trx, targetId, postId, userIds);
}

const mentionRows = reusable((trx: Kysely<Database>, targetId: string, postId: string, userIds: string[]) =>
  trx
    .insertInto('mentions')
    .values(userIds.map((user_id) => ({ target_id: targetId, post_id: postId, user_id }))),
);

/** Turns the bell on for people who have not chosen yet (an explicit bell-off stays off). */
export async function ringBellsByDefault(
  trx: Kysely<Database>,
  postId: string,
  userIds: string[],
  at: string,
): Promise<void> {
  if (userIds.length === 0) return;
  await bellsOn(trx, postId, [...new Set(userIds)], at);
}

const bellsOn = reusable((trx: Kysely<Database>, postId: string, userIds: string[], at: string) =>
  trx
    .insertInto('post_bells')
    .values(userIds.map((user_id) => ({ post_id: postId, user_id, ringing: 1, updated_at: at })))
    .onConflict((oc) => oc.columns(['post_id', 'user_id']).doNothing()),
);
