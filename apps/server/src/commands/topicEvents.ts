import type { TopicDomainEvent } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import { type NewDomainEvent, recordEvent } from '../events/eventLog.ts';

/** Records one topic domain event (typed by the contracts' union) in the caller's transaction. */
export async function recordTopicEvent(
  trx: Kysely<Database>,
  room: string,
  event: TopicDomainEvent,
  actorId: string | null,
): Promise<void> {
  await recordEvent(trx, { room, type: event.type, payload: event.payload, actorId });
}

/** One topic domain event (typed by the contracts' union), for a command that records several at once. */
export function topicEvent(room: string, event: TopicDomainEvent, actorId: string | null): NewDomainEvent {
  return { room, type: event.type, payload: event.payload, actorId };
}
