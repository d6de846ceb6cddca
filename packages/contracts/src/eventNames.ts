// The names of domain events and their rooms. Imports nothing (no zod): the web app takes them from
// `@btalk/contracts/constants`; `events.ts`, `calltree.ts` and `notifications.ts` re-export them.

/**
 * The names of the domain events of topics and posts, one map so that server, realtime and web
 * agree. Events in room `topic:<id>` are what everyone who sees the topic sees; events in room
 * `user:<id>` concern one person only.
 */
export const EventName = {
  /** room topic: a topic was created. */
  topicCreated: 'topic.created',
  /** room topic: title, description, visibility, cover or archive state changed. */
  topicUpdated: 'topic.updated',
  /** room topic: a person became a member. */
  memberAdded: 'topic.member_added',
  /** room topic: a member left or was removed. */
  memberRemoved: 'topic.member_removed',
  /** room topic: a member's role changed. */
  memberRoleChanged: 'topic.member_role_changed',
  /** room topic: a post was written. */
  postCreated: 'post.created',
  /** room topic: a post's text changed. */
  postEdited: 'post.edited',
  /** room topic: a post was deleted (clients show the placeholder). */
  postDeleted: 'post.deleted',
  /** room topic: a post was pinned or unpinned. */
  postPinned: 'post.pinned',
  /** room topic: a post was marked important (acknowledgement requested), its request changed, or unmarked. */
  announcementMarked: 'announcement.marked',
  /** room topic: an important post's counts changed (at most twice a second per post). */
  announcementProgress: 'announcement.progress',
  /** room user: the person acknowledged an important post (their other tabs and devices). */
  myAcknowledged: 'me.acknowledged',
  /** room topic: a comment was written. */
  commentCreated: 'comment.created',
  /** room topic: a comment's text changed. */
  commentEdited: 'comment.edited',
  /** room topic: a comment was deleted. */
  commentDeleted: 'comment.deleted',
  /** room topic: someone reacted to a post or comment. */
  reactionAdded: 'reaction.added',
  /** room topic: someone took a reaction back. */
  reactionRemoved: 'reaction.removed',
  /** room user: the person was added to a topic (it now shows on their home). */
  myMembershipAdded: 'me.membership_added',
  /** room user: the person left or was removed from a topic. */
  myMembershipRemoved: 'me.membership_removed',
  /** room user: the person's last-read marker of a topic moved (another tab, another device). */
  myReadUpdated: 'me.read_updated',
  /** room user: the person's bell of a post changed. */
  myBellChanged: 'me.bell_changed',
  /** room user: the person followed or unfollowed a topic. */
  myFollowChanged: 'me.follow_changed',
  /** room user: the person chose how much of a topic notifies them. */
  myNotificationLevelChanged: 'me.notification_level_changed',
} as const;
/** One event name. */
export type EventNameValue = (typeof EventName)[keyof typeof EventName];

/** The room of everything that people who see a topic see. */
export const topicRoom = (topicId: string) => `topic:${topicId}`;
/** The room of one person's own events. */
export const userRoom = (userId: string) => `user:${userId}`;

/** Names of the call-tree domain events (realtime rooms `callevent:<id>` and `user:<id>`). */
export const CallTreeEventName = {
  started: 'callevent.started',
  answered: 'callevent.answered',
  escalated: 'callevent.escalated',
  reminded: 'callevent.reminded',
  closed: 'callevent.closed',
  notification: 'notification.created',
} as const;

/** The names of the realtime events of the notification list (room `user:<id>`). */
export const NotificationEventName = {
  /** A notification was added to the list. */
  created: 'notification.created',
  /** Unread notifications were taken back (their post or comment was deleted). */
  withdrawn: 'notification.withdrawn',
  /** Notifications were marked read (on another tab or device). */
  read: 'notification.read',
} as const;
