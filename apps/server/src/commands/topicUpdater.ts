import { EventName, topicRoom, type UpdateTopicRequest } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { TopicRow, UserRow } from '../db/schema.ts';
import { now } from '../ids.ts';
import { indexDocument } from '../search/searchIndex.ts';
import { narrowAnnouncementAudiences } from './announcementAcknowledger.ts';
import { topicBaseOf } from './topicCreator.ts';
import { recordTopicEvent } from './topicEvents.ts';

/** Changes a topic's title, description, visibility or cover. */
export async function topicUpdater(
  trx: Kysely<Database>,
  actor: UserRow,
  topic: TopicRow,
  input: UpdateTopicRequest,
): Promise<void> {
  const at = now();
  await trx
    .updateTable('topics')
    .set({
      ...(input.title !== undefined ? { title: input.title } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.visibility !== undefined ? { visibility: input.visibility } : {}),
      ...(input.coverColor !== undefined ? { cover_color: input.coverColor } : {}),
      ...(input.coverEmoji !== undefined ? { cover_emoji: input.coverEmoji } : {}),
      updated_at: at,
    })
    .where('id', '=', topic.id)
    .execute();
  // Made members-only: who is not a member may no longer read its important posts, nor is asked to.
  if (input.visibility === 'members' && topic.visibility !== 'members') {
    await narrowAnnouncementAudiences(trx, topic.id);
  }
  const base = await topicBaseOf(trx, topic.id);
  if (input.title !== undefined || input.description !== undefined) {
    await indexDocument(trx, {
      kind: 'topic',
      refId: topic.id,
      topicId: topic.id,
      postId: null,
      authorId: topic.creator_id,
      body: `${base.title}\n${base.description}`,
      createdAt: topic.created_at,
    });
  }
  await recordTopicEvent(
    trx,
    topicRoom(topic.id),
    { type: EventName.topicUpdated, payload: { topic: base } },
    actor.id,
  );
}

/** Archives a topic (read-only from then on) or takes it out of the archive. */
export async function topicArchiver(
  trx: Kysely<Database>,
  actor: UserRow,
  topic: TopicRow,
  archived: boolean,
): Promise<void> {
  if ((topic.archived_at !== null) === archived) return;
  const at = now();
  await trx
    .updateTable('topics')
    .set({ archived_at: archived ? at : null, updated_at: at })
    .where('id', '=', topic.id)
    .execute();
  await recordTopicEvent(
    trx,
    topicRoom(topic.id),
    { type: EventName.topicUpdated, payload: { topic: await topicBaseOf(trx, topic.id) } },
    actor.id,
  );
}
