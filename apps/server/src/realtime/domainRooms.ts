import { CallTreeEventName, EventName } from '@btalk/contracts';
import {
  canSeeCallEvent,
  mayReceiveCallEvent,
  runCallEventIds,
  visibleCallEventIds,
} from '../policies/calltree.ts';
import { canSeeTopic, visibleTopicIds } from '../policies/topic.ts';
import type { EventFilter, RoomKind } from './rooms.ts';

/**
 * `topic:<id>`: seen by whoever the topic policy lets see the topic (everyone for an
 * organisation-wide topic, members for a members-only one).
 */
export const topicRooms: RoomKind = {
  visibleIds: (db, user) => visibleTopicIds(db, user),
  canSee: (db, user, id) => canSeeTopic(db, user, id),
  accessChangedBy(event) {
    switch (event.type) {
      // The people concerned receive these in their own room or in the topic's room.
      case EventName.memberAdded:
      case EventName.memberRemoved:
      case EventName.myMembershipAdded:
      case EventName.myMembershipRemoved:
        return 'audience';
      // An organisation-wide topic (new, or made so) becomes visible to every connection; a topic
      // made members-only is left by those in its room who are not members.
      case EventName.topicCreated:
      case EventName.topicUpdated: {
        const topic = (event.payload as { topic?: { visibility?: string } } | null)?.topic;
        return topic?.visibility === 'organisation' ? 'everyone' : 'audience';
      }
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
      if (!runs.has(id)) filters.set(id, (event) => mayReceiveCallEvent(false, user.id, event.payload));
    }
    return filters;
  },
  accessChangedBy: (event) => (event.type === CallTreeEventName.started ? 'everyone' : null),
};
