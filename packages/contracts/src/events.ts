import { z } from 'zod';
import { CommentBase, PostBase, ReactionEmoji } from './posts.ts';
import { Person, TopicBase, TopicNotificationLevel, TopicRole } from './topics.ts';

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

const event = <N extends EventNameValue, P extends z.ZodType>(type: N, payload: P) =>
  z.object({
    /** The event's name. */
    type: z.literal(type),
    /** The event's data, a plain object. */
    payload,
  });

const TopicRef = {
  /** The topic. */
  topicId: z.string(),
};
const ReactionTarget = {
  ...TopicRef,
  /** The post (or the post of the comment). */
  postId: z.string(),
  /** The comment, or null when the post itself was reacted to. */
  commentId: z.string().nullable(),
  /** The emoji. */
  emoji: ReactionEmoji,
  /** Who reacted. */
  person: Person,
};

/** Every domain event of topics and posts, keyed by `type`: what the event log and the stream carry. */
export const TopicDomainEvent = z.discriminatedUnion('type', [
  event(EventName.topicCreated, z.object({ topic: TopicBase })),
  event(EventName.topicUpdated, z.object({ topic: TopicBase })),
  event(EventName.memberAdded, z.object({ ...TopicRef, person: Person, role: TopicRole })),
  event(EventName.memberRemoved, z.object({ ...TopicRef, person: Person })),
  event(EventName.memberRoleChanged, z.object({ ...TopicRef, person: Person, role: TopicRole })),
  event(EventName.postCreated, z.object({ post: PostBase })),
  event(EventName.postEdited, z.object({ post: PostBase })),
  event(EventName.postDeleted, z.object({ ...TopicRef, postId: z.string(), deletedAt: z.string() })),
  event(EventName.postPinned, z.object({ ...TopicRef, postId: z.string(), pinnedAt: z.string().nullable() })),
  event(EventName.commentCreated, z.object({ comment: CommentBase, commentCount: z.number().int() })),
  event(EventName.commentEdited, z.object({ comment: CommentBase })),
  event(
    EventName.commentDeleted,
    z.object({
      ...TopicRef,
      postId: z.string(),
      commentId: z.string(),
      deletedAt: z.string(),
      commentCount: z.number().int(),
    }),
  ),
  event(EventName.reactionAdded, z.object(ReactionTarget)),
  event(EventName.reactionRemoved, z.object(ReactionTarget)),
  event(EventName.myMembershipAdded, z.object({ ...TopicRef, role: TopicRole })),
  event(EventName.myMembershipRemoved, z.object(TopicRef)),
  event(EventName.myReadUpdated, z.object({ ...TopicRef, lastReadNumber: z.number().int() })),
  event(
    EventName.myBellChanged,
    z.object({ ...TopicRef, postId: z.string(), bell: z.enum(['ring', 'off']) }),
  ),
  event(EventName.myFollowChanged, z.object({ ...TopicRef, following: z.boolean() })),
  event(EventName.myNotificationLevelChanged, z.object({ ...TopicRef, level: TopicNotificationLevel })),
]);
export type TopicDomainEvent = z.infer<typeof TopicDomainEvent>;

/** The payload type of one event name. */
export type TopicEventPayload<N extends TopicDomainEvent['type']> = Extract<
  TopicDomainEvent,
  { type: N }
>['payload'];
