import type {
  Comment,
  CommentBase,
  EventMessage,
  EventName,
  Notification,
  NotificationsReadPayload,
  Post,
  PostAbilities,
  PostBase,
  ReactionSummary,
  Topic,
  TopicDomainEvent,
  TopicEventPayload,
  TopicPage,
} from '@btalk/contracts';
import { CallTreeEventName, NotificationEventName } from '@btalk/contracts/constants';
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import { addNotification, markNotificationsRead, withdrawNotifications } from '../api/notificationCache.ts';
import { type CommentPages, type PostPages, patchPost, upsertComment, upsertPost } from '../api/postCache.ts';
import { callTreeKeys, notificationKeys, queryKeys } from '../api/queryKeys.ts';
import { refreshCoalesced } from './coalescedRefresh.ts';

type AnnouncementCache = typeof import('../api/announcementCache.ts');
let announcementCache: AnnouncementCache | null = null;
let loadingAnnouncementCache: Promise<AnnouncementCache> | null = null;

/**
 * The announcements' cache helpers, loaded on first use so that the first screen does not carry them
 * (a post or strip with an Acknowledge button loads them too); once loaded, events apply at once.
 */
export function loadAnnouncementCache(): Promise<AnnouncementCache> {
  loadingAnnouncementCache ??= import('../api/announcementCache.ts').then((module) => {
    announcementCache = module;
    return module;
  });
  return loadingAnnouncementCache;
}

/** Runs `update` with the announcements' cache helpers: now if they are loaded, else once they are, in order. */
function withAnnouncementCache(update: (cache: AnnouncementCache) => void): void {
  if (announcementCache) update(announcementCache);
  else void loadAnnouncementCache().then(update);
}

type Name = (typeof EventName)[keyof typeof EventName];
type NotificationName = (typeof NotificationEventName)[keyof typeof NotificationEventName];
// The call tree's own events (its `notification` entry is the bell's, applied before these).
const CALL_TREE_EVENTS: ReadonlySet<string> = new Set<string>(
  Object.values(CallTreeEventName).filter((name) => name !== NotificationEventName.created),
);

type Payload<N extends Name> = TopicEventPayload<N>;
type TopicPages = InfiniteData<TopicPage, string | undefined>;

/** Who is reading: posts and comments that arrive by event take the topic's abilities by their author. */
export interface Viewer {
  userId: string;
}

/** The topic as cached (detail), when this tab has it. */
function cachedTopic(qc: QueryClient, topicId: string): Topic | undefined {
  return qc.getQueryData<Topic>(queryKeys.topics.detail(topicId));
}

/** The topic as a cached list (Home's, the archive) holds it, if one does. */
function listedTopic(qc: QueryClient, topicId: string): Topic | undefined {
  for (const [, data] of qc.getQueriesData<TopicPages>({ queryKey: queryKeys.topics.lists() })) {
    const found = data?.pages.flatMap((p) => p.items).find((t) => t.id === topicId);
    if (found) return found;
  }
  return undefined;
}

const NO_POST_ABILITIES: PostAbilities = {
  edit: false,
  delete: false,
  pin: false,
  comment: false,
  react: false,
};
const NO_COMMENT_ABILITIES: Comment['abilities'] = { edit: false, delete: false, react: false };

/**
 * A post as this person sees it, from the shared payload. Its abilities are the server's: the cached
 * topic's `ownPost` or `othersPost` (the policy's answer for a post that is not deleted in this topic,
 * by author), none when it is deleted or the topic is not cached. A post already cached keeps the
 * abilities and bell the server gave it.
 */
function asPost(qc: QueryClient, base: PostBase, viewer: Viewer, existing?: Post): Post {
  if (existing) return { ...existing, ...base };
  const abilities = cachedTopic(qc, base.topicId)?.abilities;
  const author = base.author.id === viewer.userId;
  const mentioned = base.mentions.some((m) => m.id === viewer.userId);
  return {
    ...base,
    bell: author || mentioned ? 'ring' : 'off',
    // A new post cannot have been acknowledged yet (it is marked important after it is written).
    acknowledgedAt: null,
    abilities:
      base.deletedAt !== null || !abilities
        ? NO_POST_ABILITIES
        : author
          ? abilities.ownPost
          : abilities.othersPost,
  };
}

/** A comment as this person sees it: the cached topic's `ownComment` or `othersComment`, as for posts. */
function asComment(qc: QueryClient, base: CommentBase, viewer: Viewer, existing?: Comment): Comment {
  if (existing) return { ...existing, ...base };
  const abilities = cachedTopic(qc, base.topicId)?.abilities;
  const author = base.author.id === viewer.userId;
  return {
    ...base,
    abilities:
      base.deletedAt !== null || !abilities
        ? NO_COMMENT_ABILITIES
        : author
          ? abilities.ownComment
          : abilities.othersComment,
  };
}

function findPost(qc: QueryClient, topicId: string, postId: string): Post | undefined {
  const data = qc.getQueryData<PostPages>(queryKeys.posts.list(topicId));
  for (const page of data?.pages ?? []) {
    const hit = page.items.find((p) => p.id === postId) ?? page.pinned.find((p) => p.id === postId);
    if (hit) return hit;
  }
  return undefined;
}

function findComment(qc: QueryClient, postId: string, commentId: string): Comment | undefined {
  const data = qc.getQueryData<CommentPages>(queryKeys.posts.comments(postId));
  for (const page of data?.pages ?? []) {
    const hit = page.items.find((c) => c.id === commentId);
    if (hit) return hit;
  }
  return undefined;
}

function patchComment(qc: QueryClient, postId: string, commentId: string, change: (c: Comment) => Comment) {
  qc.setQueryData<CommentPages>(queryKeys.posts.comments(postId), (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((p) => ({
            ...p,
            items: p.items.map((c) => (c.id === commentId ? change(c) : c)),
          })),
        }
      : data,
  );
}

/** Adds or takes away one person's reaction in a summary list (idempotent: replays change nothing). */
export function applyReaction(
  reactions: ReactionSummary[],
  p: Payload<'reaction.added'>,
  added: boolean,
): ReactionSummary[] {
  const others = reactions.filter((r) => r.emoji !== p.emoji);
  const current = reactions.find((r) => r.emoji === p.emoji);
  const people = (current?.people ?? []).filter((x) => x.id !== p.person.id);
  if (added) people.push(p.person);
  if (people.length === 0) return others;
  const next = { emoji: p.emoji, count: people.length, people };
  // Keep the emoji's place; a new emoji goes last (the server orders by the emoji set on refetch).
  return current ? reactions.map((r) => (r.emoji === p.emoji ? next : r)) : [...others, next];
}

/** Patches one topic wherever it is cached: its detail and every home list page. */
function patchTopic(qc: QueryClient, topicId: string, change: (t: Topic) => Topic): void {
  qc.setQueryData<Topic>(queryKeys.topics.detail(topicId), (t) => (t ? change(t) : t));
  qc.setQueriesData<TopicPages>({ queryKey: queryKeys.topics.lists() }, (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((p) => ({
            ...p,
            items: p.items.map((t) => (t.id === topicId ? change(t) : t)),
          })),
        }
      : data,
  );
}

/** A post by someone else arrived: one more unread, unless the reader already has it in view. */
function countNewPost(qc: QueryClient, post: PostBase, viewer: Viewer): void {
  patchTopic(qc, post.topicId, (t) => ({
    ...t,
    postCount: Math.max(t.postCount, post.number),
    lastActivityAt: post.createdAt,
    unreadCount:
      post.author.id !== viewer.userId && post.number > t.lastReadNumber ? t.unreadCount + 1 : t.unreadCount,
  }));
}

/**
 * The call tree's lists and, when known, one event's queries: something changed in it. Coalesced:
 * a running event can change hundreds of times a second.
 */
function refreshCallTree(qc: QueryClient, eventId: string | undefined): void {
  if (eventId) refreshCoalesced(qc, callTreeKeys.event(eventId));
  refreshCoalesced(qc, callTreeKeys.pending());
  refreshCoalesced(qc, callTreeKeys.events());
}

/**
 * The bell's events (room `user:<id>`): a new notification goes first in the list, withdrawn ones
 * go, read ones are marked; the unread count follows. True when `name` was one of them.
 */
function applyNotificationEvent(qc: QueryClient, name: string, payload: unknown): boolean {
  switch (name as NotificationName) {
    case 'notification.created': {
      const n = payload as Notification | null;
      if (!n || typeof n.id !== 'string' || typeof n.kind !== 'string') {
        void qc.invalidateQueries({ queryKey: notificationKeys.list() });
        return true;
      }
      addNotification(qc, { ...n, data: n.data ?? {} });
      // Started events, reminders and escalations also change the banner and the event's roll-up.
      if (n.kind.startsWith('calltree.')) {
        const eventId = n.data?.eventId;
        refreshCallTree(qc, typeof eventId === 'string' ? eventId : undefined);
      }
      return true;
    }
    case 'notification.withdrawn': {
      const ids = (payload as { ids?: unknown } | null)?.ids;
      if (Array.isArray(ids))
        withdrawNotifications(
          qc,
          ids.filter((id) => typeof id === 'string'),
        );
      else void qc.invalidateQueries({ queryKey: notificationKeys.list() });
      return true;
    }
    case 'notification.read': {
      const p = payload as Partial<NotificationsReadPayload> | null;
      const ids = Array.isArray(p?.ids) ? p.ids : null;
      const count = typeof p?.unreadCount === 'number' ? p.unreadCount : null;
      markNotificationsRead(qc, ids, count);
      return true;
    }
  }
  return false;
}

/**
 * Applies one domain event to the query cache: posts, comments and reactions in place, topics'
 * counters, and invalidations where the event does not carry enough to patch (lists whose order
 * changes, the call-tree roll-ups, whose totals are computed by the server).
 */
export function applyEvent(qc: QueryClient, message: EventMessage, viewer: Viewer): void {
  const name = message.name;
  if (applyNotificationEvent(qc, name, message.payload)) return;
  if (CALL_TREE_EVENTS.has(name)) {
    const eventId = message.room.startsWith('callevent:')
      ? message.room.slice('callevent:'.length)
      : (message.payload as { eventId?: string } | null)?.eventId;
    refreshCallTree(qc, eventId);
    return;
  }
  const event = { type: name, payload: message.payload } as TopicDomainEvent;
  switch (event.type) {
    case 'post.created': {
      const { post } = event.payload;
      const known = findPost(qc, post.topicId, post.id);
      upsertPost(qc, asPost(qc, post, viewer, known));
      if (!known) countNewPost(qc, post, viewer);
      break;
    }
    case 'post.edited': {
      const { post } = event.payload;
      const known = findPost(qc, post.topicId, post.id);
      if (known) upsertPost(qc, asPost(qc, post, viewer, known));
      // An open history dialog shows the text this edit replaced.
      void qc.invalidateQueries({ queryKey: queryKeys.posts.revisions(post.id, 'post') });
      break;
    }
    case 'post.deleted': {
      const p = event.payload;
      patchPost(qc, p.topicId, p.postId, (post) => ({
        ...post,
        body: '',
        attachments: [],
        deletedAt: p.deletedAt,
        abilities: NO_POST_ABILITIES,
      }));
      // A deleted important post asks nobody any more.
      withAnnouncementCache((cache) => cache.dropPending(qc, p.postId));
      break;
    }
    case 'post.pinned': {
      const p = event.payload;
      const known = findPost(qc, p.topicId, p.postId);
      if (known) upsertPost(qc, { ...known, pinnedAt: p.pinnedAt });
      break;
    }
    case 'announcement.marked': {
      const p = event.payload;
      withAnnouncementCache((cache) => cache.announcementMarked(qc, p.topicId, p.postId, p.announcement));
      break;
    }
    case 'announcement.progress': {
      const p = event.payload;
      withAnnouncementCache((cache) => cache.announcementProgress(qc, p.topicId, p.postId, p.totals));
      break;
    }
    case 'me.acknowledged': {
      const p = event.payload;
      withAnnouncementCache((cache) => cache.setAcknowledged(qc, p.topicId, p.postId, p.acknowledgedAt));
      break;
    }
    case 'comment.created':
    case 'comment.edited': {
      const { comment } = event.payload;
      const known = findComment(qc, comment.postId, comment.id);
      if (event.type === 'comment.edited') {
        void qc.invalidateQueries({ queryKey: queryKeys.posts.revisions(comment.id, 'comment') });
        if (!known) break;
      }
      upsertComment(qc, asComment(qc, comment, viewer, known));
      if (event.type === 'comment.created') {
        const count = event.payload.commentCount;
        patchPost(qc, comment.topicId, comment.postId, (p) => ({ ...p, commentCount: count }));
      }
      break;
    }
    case 'comment.deleted': {
      const p = event.payload;
      patchComment(qc, p.postId, p.commentId, (c) => ({
        ...c,
        body: '',
        deletedAt: p.deletedAt,
        abilities: NO_COMMENT_ABILITIES,
      }));
      patchPost(qc, p.topicId, p.postId, (post) => ({ ...post, commentCount: p.commentCount }));
      break;
    }
    case 'reaction.added':
    case 'reaction.removed': {
      const p = event.payload;
      const added = event.type === 'reaction.added';
      if (p.commentId) {
        const commentId = p.commentId;
        patchComment(qc, p.postId, commentId, (c) => ({
          ...c,
          reactions: applyReaction(c.reactions, p, added),
        }));
      } else {
        patchPost(qc, p.topicId, p.postId, (post) => ({
          ...post,
          reactions: applyReaction(post.reactions, p, added),
        }));
      }
      break;
    }
    case 'topic.updated':
    case 'topic.created': {
      const { topic } = event.payload;
      const before = cachedTopic(qc, topic.id);
      const known = before ?? listedTopic(qc, topic.id);
      patchTopic(qc, topic.id, (t) => ({ ...t, ...topic }));
      if (!known || known.archivedAt !== topic.archivedAt) {
        // Archived or restored (or a topic no list here holds, maybe just restored): it leaves or
        // joins Home's lists and the archive, for everyone who sees it.
        void qc.invalidateQueries({ queryKey: queryKeys.topics.lists() });
      }
      if (before && before.archivedAt !== topic.archivedAt) {
        // Archiving changes what the reader may do with the topic, its posts and comments: the
        // server works the abilities out again.
        void qc.invalidateQueries({ queryKey: queryKeys.topics.detail(topic.id) });
        for (const page of qc.getQueryData<PostPages>(queryKeys.posts.list(topic.id))?.pages ?? []) {
          for (const post of page.items)
            void qc.invalidateQueries({ queryKey: queryKeys.posts.comments(post.id) });
        }
        void qc.invalidateQueries({ queryKey: queryKeys.posts.list(topic.id) });
      }
      if (event.type === 'topic.created') void qc.invalidateQueries({ queryKey: queryKeys.topics.lists() });
      break;
    }
    case 'topic.member_added':
    case 'topic.member_removed':
    case 'topic.member_role_changed':
      void qc.invalidateQueries({ queryKey: queryKeys.topics.members(event.payload.topicId) });
      void qc.invalidateQueries({ queryKey: queryKeys.topics.detail(event.payload.topicId) });
      break;
    case 'me.membership_added':
    case 'me.membership_removed':
    case 'me.follow_changed':
      // Abilities and the home lists change with membership: the server works them out.
      void qc.invalidateQueries({ queryKey: queryKeys.topics.detail(event.payload.topicId) });
      void qc.invalidateQueries({ queryKey: queryKeys.topics.lists() });
      if (event.type !== 'me.follow_changed')
        void qc.invalidateQueries({ queryKey: queryKeys.posts.list(event.payload.topicId) });
      break;
    case 'me.read_updated': {
      const p = event.payload;
      patchTopic(qc, p.topicId, (t) =>
        p.lastReadNumber > t.lastReadNumber ? { ...t, lastReadNumber: p.lastReadNumber } : t,
      );
      // The unread count is the server's (posts by others, not deleted): refetch it.
      void qc.invalidateQueries({ queryKey: queryKeys.topics.lists() });
      void qc.invalidateQueries({ queryKey: queryKeys.topics.detail(p.topicId) });
      break;
    }
    case 'me.bell_changed': {
      const p = event.payload;
      patchPost(qc, p.topicId, p.postId, (post) => ({ ...post, bell: p.bell }));
      break;
    }
    case 'me.notification_level_changed': {
      const p = event.payload;
      patchTopic(qc, p.topicId, (t) => ({ ...t, notificationLevel: p.level }));
      break;
    }
  }
}
