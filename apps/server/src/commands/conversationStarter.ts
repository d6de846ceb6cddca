import { EventName, topicRoom, userRoom } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { UserRow } from '../db/schema.ts';
import { invalid } from '../http/errors.ts';
import { newId, now } from '../ids.ts';
import { activePeople, topicBaseOf } from './topicCreator.ts';
import { recordTopicEvent } from './topicEvents.ts';

/** The key of a direct conversation: its participants' ids, sorted, joined with commas. */
export function directKeyOf(participantIds: string[]): string {
  return [...new Set(participantIds)].sort().join(',');
}

/**
 * The direct conversation of the actor and these people (1 to 7 others, checked by the contract):
 * answers the one they already have, else makes it. A conversation is a topic that keeps its
 * people: visibility stored as `members`, every participant a plain member (nobody owns it), no
 * title (its people's names are shown), not in the search index (its posts are, for its people).
 * Making one notifies nobody: its first message does. Two requests that race both insert; the unique
 * `direct_key` refuses the second, and the route runs it again (`retryOnUniqueViolation`), which
 * then finds the first.
 */
export async function conversationStarter(
  trx: Kysely<Database>,
  actor: UserRow,
  userIds: string[],
): Promise<{ id: string; created: boolean }> {
  if (userIds.includes(actor.id)) {
    throw invalid('body.userIds', 'leave yourself out: you are in every conversation you start');
  }
  const others = await activePeople(trx, userIds, 'body.userIds');
  const key = directKeyOf([actor.id, ...others]);
  const existing = await trx
    .selectFrom('topics')
    .select('id')
    .where('direct_key', '=', key)
    .executeTakeFirst();
  if (existing) return { id: existing.id, created: false };

  const id = newId();
  const at = now();
  const participants = key.split(',');
  await trx
    .insertInto('topics')
    .values({
      id,
      client_id: null,
      creator_id: actor.id,
      title: '',
      description: '',
      visibility: 'members',
      direct_key: key,
      cover_color: null,
      cover_emoji: null,
      archived_at: null,
      post_count: 0,
      member_count: participants.length,
      last_activity_at: at,
      created_at: at,
      updated_at: at,
    })
    .execute();
  await trx
    .insertInto('topic_members')
    .values(
      participants.map((user_id) => ({
        topic_id: id,
        user_id,
        role: 'member' as const,
        added_by: actor.id,
        created_at: at,
      })),
    )
    .execute();
  await recordTopicEvent(
    trx,
    topicRoom(id),
    { type: EventName.topicCreated, payload: { topic: await topicBaseOf(trx, id) } },
    actor.id,
  );
  // Each participant's sockets open the conversation's room and their Home lists it.
  for (const userId of participants) {
    await recordTopicEvent(
      trx,
      userRoom(userId),
      { type: EventName.myMembershipAdded, payload: { topicId: id, role: 'member' } },
      actor.id,
    );
  }
  return { id, created: true };
}
