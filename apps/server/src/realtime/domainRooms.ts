import { CallTreeEventName, EventName } from '@btalk/contracts';
import type { UserRow } from '../db/schema.ts';
import {
  callEventAudience,
  canSeeCallEvent,
  mayReceiveCallEvent,
  runCallEventIds,
  visibleCallEventIds,
} from '../policies/calltree.ts';
import { canSeeTopic, membersOnlyTopicIds, organisationTopicIds, topicMemberIds } from '../policies/topic.ts';
import type { EventFilter, RoomKind } from './rooms.ts';

/**
 * `topic:<id>`: seen by whoever the topic policy lets see the topic (everyone for an
 * organisation-wide topic, members for a members-only one).
 */
export const topicRooms: RoomKind = {
  // Organisation-wide topics are everyone's rooms; a person's own list holds their members-only ones.
  visibleIds: (db, user) => membersOnlyTopicIds(db, user),
  canSee: (db, user, id) => canSeeTopic(db, user, id),
  everyoneIds: (db) => organisationTopicIds(db),
  everyoneChangedBy(event) {
    if (event.type !== EventName.topicCreated && event.type !== EventName.topicUpdated) return null;
    const topic = (event.payload as { topic?: { id?: unknown; visibility?: unknown } } | null)?.topic;
    if (typeof topic?.id !== 'string') return null;
    return { id: topic.id, everyone: topic.visibility === 'organisation' };
  },
  // A topic made members-only stays open to its members, found in one query.
  opens: (event) =>
    event.type === EventName.topicUpdated &&
    (event.payload as { topic?: { visibility?: unknown } } | null)?.topic?.visibility === 'members',
  async openedBy(db, event) {
    const id = (event.payload as { topic: { id: string } }).topic.id;
    return {
      room: `topic:${id}`,
      userIds: new Set(await topicMemberIds(db, id)),
      admins: false,
      filterFor: () => undefined,
    };
  },
  accessChangedBy(event) {
    switch (event.type) {
      // The people concerned receive these in their own room or in the topic's room.
      case EventName.memberAdded:
      case EventName.memberRemoved:
      case EventName.myMembershipAdded:
      case EventName.myMembershipRemoved:
        return 'audience';
      default:
        return null;
    }
  },
};

/**
 * `callevent:<id>`: seen by admins, the tree's event managers and the people targeted (the call-tree
 * policy); a targeted person receives the answers and escalations of their own branch only. A
 * started event concerns connections that followed nothing of it.
 */
export const callEventRooms: RoomKind = {
  visibleIds: (db, user) => visibleCallEventIds(db, user),
  canSee: (db, user, id) => canSeeCallEvent(db, user, id),
  // Answers and escalations reach only those who may read that person's answers over HTTP.
  async filters(db, user, ids) {
    const runs = await runCallEventIds(db, user, ids);
    const filters = new Map<string, EventFilter>();
    for (const id of ids) {
      if (!runs.has(id)) filters.set(id, answersFilter(user));
    }
    return filters;
  },
  // A started event opens its room to its audience, found from its targets in two queries.
  opens: (event) => event.type === CallTreeEventName.started,
  async openedBy(db, event) {
    const id = (event.payload as { eventId: string }).eventId;
    const { people, runners } = await callEventAudience(db, id);
    return {
      room: `callevent:${id}`,
      userIds: people,
      admins: true,
      filterFor: (user) => (user.role === 'admin' || runners.has(user.id) ? undefined : answersFilter(user)),
    };
  },
};

function answersFilter(user: UserRow): EventFilter {
  return (event) => mayReceiveCallEvent(false, user.id, event.payload);
}
