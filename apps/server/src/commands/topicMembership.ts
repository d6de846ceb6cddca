import { EventName, type TopicRole, topicRoom, userRoom } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { TopicRow, UserRow } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { now } from '../ids.ts';
import { notifyTopicChange } from '../notifications/topicNotices.ts';
import { loadPeople, personFrom } from '../presenters/person.ts';
import { leaveAnnouncementAudiences } from './announcementAcknowledger.ts';
import { activePeople } from './topicCreator.ts';
import { recordTopicEvent } from './topicEvents.ts';

async function countMembers(trx: Kysely<Database>, topicId: string, role?: TopicRole): Promise<number> {
  let q = trx
    .selectFrom('topic_members')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('topic_id', '=', topicId);
  if (role) q = q.where('role', '=', role);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

/**
 * Adds people to a topic with a role (each is notified); people already in it keep theirs. Answers
 * who was added.
 */
export async function memberAdder(
  trx: Kysely<Database>,
  actor: UserRow,
  topic: TopicRow,
  userIds: string[],
  role: TopicRole,
): Promise<string[]> {
  const ids = await activePeople(trx, userIds, 'body.userIds');
  const existing = await trx
    .selectFrom('topic_members')
    .select('user_id')
    .where('topic_id', '=', topic.id)
    .where('user_id', 'in', ids)
    .execute();
  const present = new Set(existing.map((m) => m.user_id));
  const added = ids.filter((id) => !present.has(id));
  if (added.length === 0) return [];
  const at = now();
  await trx
    .insertInto('topic_members')
    .values(
      added.map((user_id) => ({ topic_id: topic.id, user_id, role, added_by: actor.id, created_at: at })),
    )
    .execute();
  await trx
    .updateTable('topics')
    .set({ member_count: await countMembers(trx, topic.id) })
    .where('id', '=', topic.id)
    .execute();
  const people = await loadPeople(trx, added);
  for (const userId of added) {
    const person = personFrom(people, userId);
    await recordTopicEvent(
      trx,
      topicRoom(topic.id),
      { type: EventName.memberAdded, payload: { topicId: topic.id, person, role } },
      actor.id,
    );
    await recordTopicEvent(
      trx,
      userRoom(userId),
      { type: EventName.myMembershipAdded, payload: { topicId: topic.id, role } },
      actor.id,
    );
  }
  await notifyTopicChange(
    trx,
    actor,
    topic,
    { type: 'member.added', actorId: actor.id, addedIds: added },
    {},
    at,
  );
  return added;
}

async function refuseLastOwner(trx: Kysely<Database>, topicId: string, userId: string, what: string) {
  const member = await trx
    .selectFrom('topic_members')
    .select('role')
    .where('topic_id', '=', topicId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!member) throw new AppError('notFound', 'This person is not a member of the topic.');
  if (member.role === 'owner' && (await countMembers(trx, topicId, 'owner')) === 1) {
    throw new AppError('conflict', `The last owner cannot ${what}: make another member an owner first.`);
  }
}

/** Removes a member (or the member leaves); the last owner cannot go. */
export async function memberRemover(
  trx: Kysely<Database>,
  actor: UserRow,
  topic: TopicRow,
  userId: string,
): Promise<void> {
  await refuseLastOwner(trx, topic.id, userId, userId === actor.id ? 'leave' : 'be removed');
  await trx
    .deleteFrom('topic_members')
    .where('topic_id', '=', topic.id)
    .where('user_id', '=', userId)
    .execute();
  await trx
    .updateTable('topics')
    .set({ member_count: await countMembers(trx, topic.id) })
    .where('id', '=', topic.id)
    .execute();
  // Out of a members-only topic, out of its important posts' audiences (an organisation-wide topic
  // stays readable to people who leave it).
  if (topic.visibility === 'members') await leaveAnnouncementAudiences(trx, topic.id, userId);
  const person = personFrom(await loadPeople(trx, [userId]), userId);
  await recordTopicEvent(
    trx,
    topicRoom(topic.id),
    { type: EventName.memberRemoved, payload: { topicId: topic.id, person } },
    actor.id,
  );
  await recordTopicEvent(
    trx,
    userRoom(userId),
    { type: EventName.myMembershipRemoved, payload: { topicId: topic.id } },
    actor.id,
  );
}

/** Changes a member's role; the last owner cannot become a plain member. */
export async function memberRoleChanger(
  trx: Kysely<Database>,
  actor: UserRow,
  topic: TopicRow,
  userId: string,
  role: TopicRole,
): Promise<void> {
  if (role === 'member') await refuseLastOwner(trx, topic.id, userId, 'become a plain member');
  const result = await trx
    .updateTable('topic_members')
    .set({ role })
    .where('topic_id', '=', topic.id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0)
    throw new AppError('notFound', 'This person is not a member of the topic.');
  const person = personFrom(await loadPeople(trx, [userId]), userId);
  await recordTopicEvent(
    trx,
    topicRoom(topic.id),
    { type: EventName.memberRoleChanged, payload: { topicId: topic.id, person, role } },
    actor.id,
  );
}

/** Follows or unfollows an organisation-wide topic. */
export async function topicFollower(
  trx: Kysely<Database>,
  actor: UserRow,
  topic: TopicRow,
  following: boolean,
): Promise<void> {
  if (topic.visibility !== 'organisation') {
    throw new AppError(
      'conflict',
      'Members-only topics are followed by being a member: ask an owner to add you.',
    );
  }
  if (following) {
    await trx
      .insertInto('topic_follows')
      .values({ topic_id: topic.id, user_id: actor.id, created_at: now() })
      .onConflict((oc) => oc.columns(['topic_id', 'user_id']).doNothing())
      .execute();
  } else {
    await trx
      .deleteFrom('topic_follows')
      .where('topic_id', '=', topic.id)
      .where('user_id', '=', actor.id)
      .execute();
  }
  await recordTopicEvent(
    trx,
    userRoom(actor.id),
    { type: EventName.myFollowChanged, payload: { topicId: topic.id, following } },
    actor.id,
  );
}

/** Moves the person's last-read marker forward (never back, never past the newest post). */
export async function readMarker(
  trx: Kysely<Database>,
  actor: UserRow,
  topic: TopicRow,
  lastReadNumber: number,
): Promise<number> {
  const current = await trx
    .selectFrom('read_states')
    .select('last_read_number')
    .where('user_id', '=', actor.id)
    .where('topic_id', '=', topic.id)
    .executeTakeFirst();
  const target = Math.max(
    Number(current?.last_read_number ?? 0),
    Math.min(lastReadNumber, Number(topic.post_count)),
  );
  if (current && Number(current.last_read_number) === target) return target;
  await trx
    .insertInto('read_states')
    .values({ user_id: actor.id, topic_id: topic.id, last_read_number: target, updated_at: now() })
    .onConflict((oc) =>
      oc.columns(['user_id', 'topic_id']).doUpdateSet({ last_read_number: target, updated_at: now() }),
    )
    .execute();
  await recordTopicEvent(
    trx,
    userRoom(actor.id),
    { type: EventName.myReadUpdated, payload: { topicId: topic.id, lastReadNumber: target } },
    actor.id,
  );
  return target;
}
