import { type CreateTopicRequest, EventName, topicRoom, userRoom } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { UserRow } from '../db/schema.ts';
import { AppError, invalid } from '../http/errors.ts';
import { newId, now } from '../ids.ts';
import { notifyTopicChange } from '../notifications/topicNotices.ts';
import { loadParticipantsOf } from '../presenters/conversation.ts';
import { presentTopicBase, selectTopics } from '../presenters/topic.ts';
import { indexDocument } from '../search/searchIndex.ts';
import { recordTopicEvent } from './topicEvents.ts';

/** The shared view of a topic, for event payloads. */
export async function topicBaseOf(trx: Kysely<Database>, topicId: string) {
  const row = await selectTopics(trx, '').where('topics.id', '=', topicId).executeTakeFirstOrThrow();
  return presentTopicBase(row, await loadParticipantsOf(trx, [row]));
}

/** Checks that every id names an active person; answers them without duplicates. */
export async function activePeople(trx: Kysely<Database>, ids: string[], field: string): Promise<string[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const rows = await trx
    .selectFrom('users')
    .select('id')
    .where('id', 'in', unique)
    .where('disabled', '=', 0)
    .execute();
  const known = new Set(rows.map((r) => r.id));
  const unknown = unique.find((id) => !known.has(id));
  if (unknown) throw invalid(field, `no active person has the id ${unknown}: pick people from the directory`);
  return unique;
}

/** Creates a topic with its creator as owner (and the given members); answers its id. */
export async function topicCreator(
  trx: Kysely<Database>,
  actor: UserRow,
  input: CreateTopicRequest,
): Promise<string> {
  if (input.clientId) {
    const existing = await trx
      .selectFrom('topics')
      .select(['id', 'title', 'description', 'visibility'])
      .where('creator_id', '=', actor.id)
      .where('client_id', '=', input.clientId)
      .executeTakeFirst();
    if (existing) {
      // Compared field by field: the title and description may have been edited since (no hash kept).
      const same =
        existing.title === input.title &&
        existing.description === input.description &&
        existing.visibility === input.visibility;
      if (!same) {
        throw new AppError(
          'conflict',
          'This clientId was already used for a different topic: make a new clientId.',
        );
      }
      return existing.id;
    }
  }
  const others = (await activePeople(trx, input.memberIds, 'body.memberIds')).filter((id) => id !== actor.id);
  const id = newId();
  const at = now();
  await trx
    .insertInto('topics')
    .values({
      id,
      client_id: input.clientId ?? null,
      creator_id: actor.id,
      title: input.title,
      description: input.description,
      visibility: input.visibility,
      cover_color: input.coverColor ?? null,
      cover_emoji: input.coverEmoji ?? null,
      archived_at: null,
      post_count: 0,
      member_count: 1 + others.length,
      last_activity_at: at,
      created_at: at,
      updated_at: at,
    })
    .execute();
  await trx
    .insertInto('topic_members')
    .values([
      { topic_id: id, user_id: actor.id, role: 'owner', added_by: actor.id, created_at: at },
      ...others.map((user_id) => ({
        topic_id: id,
        user_id,
        role: 'member' as const,
        added_by: actor.id,
        created_at: at,
      })),
    ])
    .execute();
  await indexDocument(trx, {
    kind: 'topic',
    refId: id,
    topicId: id,
    postId: null,
    authorId: actor.id,
    body: `${input.title}\n${input.description}`,
    createdAt: at,
  });
  await recordTopicEvent(
    trx,
    topicRoom(id),
    { type: EventName.topicCreated, payload: { topic: await topicBaseOf(trx, id) } },
    actor.id,
  );
  for (const userId of [actor.id, ...others]) {
    await recordTopicEvent(
      trx,
      userRoom(userId),
      {
        type: EventName.myMembershipAdded,
        payload: { topicId: id, role: userId === actor.id ? 'owner' : 'member' },
      },
      actor.id,
    );
  }
  if (others.length > 0) {
    const topic = await trx.selectFrom('topics').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    await notifyTopicChange(
      trx,
      actor,
      topic,
      { type: 'member.added', actorId: actor.id, addedIds: others },
      {},
      at,
    );
  }
  return id;
}
