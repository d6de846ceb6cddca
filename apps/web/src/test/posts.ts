import type { Announcement, AnnouncementTotals, EventMessage, Post, PostBase } from '@btalk/contracts';

/** People the web tests' posts are written by. */
export const anong = { id: 'u-anong', displayName: 'Anong', email: 'anong@btalk.test', department: null };
export const boon = { id: 'u-boon', displayName: 'Boon', email: 'boon@btalk.test', department: null };

/** A post of topic `t1` as realtime events carry it (no per-reader fields), by Anong. */
export function postBase(number: number, over: Partial<PostBase> = {}): PostBase {
  return {
    id: `p${number}`,
    clientId: `c${number}`,
    topicId: 't1',
    number,
    author: anong,
    body: `post ${number}`,
    mentions: [],
    attachments: [],
    reactions: [],
    commentCount: 0,
    pinnedAt: null,
    editedAt: null,
    deletedAt: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    announcement: null,
    ...over,
  };
}

/** The post as a reader gets it over HTTP: their bell, acknowledgement and abilities (all allowed). */
export function asPost(base: PostBase, over: Partial<Post> = {}): Post {
  return {
    ...base,
    bell: 'ring',
    acknowledgedAt: null,
    abilities: { edit: true, delete: true, pin: true, comment: true, react: true },
    ...over,
  };
}

/** Counts of an important post's audience of `audience`, `seen` of whom saw it. */
export function totalsOf(acknowledged: number, audience = 40, seen = acknowledged): AnnouncementTotals {
  return { audience, seen, acknowledged, notYet: audience - acknowledged };
}

/** An acknowledgement request, marked on 27 November, nobody has acknowledged yet. */
export function announcementOf(over: Partial<Announcement> = {}): Announcement {
  return {
    markedAt: '2026-11-27T09:00:00.000Z',
    urgent: false,
    dueAt: null,
    remindAfterMinutes: null,
    totals: totalsOf(0),
    ...over,
  };
}

let seq = 0;

/** A realtime event in topic `t1`'s room (or `room`), by Anong, with the next sequence number. */
export function eventOf(name: string, payload: unknown, room = 'topic:t1'): EventMessage {
  seq += 1;
  return {
    type: 'event',
    seq,
    room,
    name,
    payload,
    actorId: anong.id,
    createdAt: '2026-01-01T00:00:00.000Z',
  };
}
