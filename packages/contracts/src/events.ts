import { z } from 'zod';
import { Announcement, AnnouncementProgress } from './announcements.ts';
import { EventName, type EventNameValue } from './eventNames.ts';
import { CommentBase, PostBase, ReactionEmoji } from './posts.ts';
import { Person, TopicBase, TopicNotificationLevel, TopicRole } from './topics.ts';

export { EventName, type EventNameValue, topicRoom, userRoom } from './eventNames.ts';

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
  event(
    EventName.announcementMarked,
    z.object({ ...TopicRef, postId: z.string(), announcement: Announcement.nullable() }),
  ),
  event(EventName.announcementProgress, AnnouncementProgress),
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
  event(EventName.myAcknowledged, z.object({ ...TopicRef, postId: z.string(), acknowledgedAt: z.string() })),
  event(EventName.myFollowChanged, z.object({ ...TopicRef, following: z.boolean() })),
  event(EventName.myNotificationLevelChanged, z.object({ ...TopicRef, level: TopicNotificationLevel })),
]);
export type TopicDomainEvent = z.infer<typeof TopicDomainEvent>;

/** The payload type of one event name. */
export type TopicEventPayload<N extends TopicDomainEvent['type']> = Extract<
  TopicDomainEvent,
  { type: N }
>['payload'];
