import { EventName, type TopicNotificationLevel, userRoom } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { TopicRow, UserRow } from '../db/schema.ts';
import { now } from '../ids.ts';
import { recordTopicEvent } from './topicEvents.ts';

/**
 * Sets how much of a topic (one the actor may see) notifies them, and records
 * `me.notification_level_changed` in their room so their other tabs and devices follow.
 */
export async function topicNotificationLevelSetter(
  trx: Kysely<Database>,
  actor: UserRow,
  topic: TopicRow,
  level: TopicNotificationLevel,
): Promise<void> {
  const at = now();
  await trx
    .insertInto('topic_notification_levels')
    .values({ topic_id: topic.id, user_id: actor.id, level, updated_at: at })
    .onConflict((oc) => oc.columns(['topic_id', 'user_id']).doUpdateSet({ level, updated_at: at }))
    .execute();
  await recordTopicEvent(
    trx,
    userRoom(actor.id),
    { type: EventName.myNotificationLevelChanged, payload: { topicId: topic.id, level } },
    actor.id,
  );
}
