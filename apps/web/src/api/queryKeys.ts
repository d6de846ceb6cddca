import type { CallEventState } from '@btalk/contracts';
import type { RollupFilters } from './calltree.ts';
import type { SearchRequest } from './search.ts';

/**
 * Every query key of the topics feature, in one place. The realtime client (issue 7) updates the
 * cache from domain events through these keys and the helpers in `postCache.ts`, so keep them
 * hierarchical: invalidating a prefix (e.g. `queryKeys.topics.all`) reaches everything below it.
 *
 * - `['topics', 'list', {scope}]`: home's topic list (infinite; pages of `TopicPage`); scope `direct`:
 *   my direct conversations (`GET /api/conversations`), so topic events patch them as they do topics.
 * - `['topics', 'detail', topicId]`: one `Topic` (header, abilities, read marker).
 * - `['topics', 'members', topicId]`: the topic's members (`TopicMemberPage`).
 * - `['posts', 'list', topicId]`: the topic's posts (infinite; pages of `PostPage`, newest first).
 * - `['posts', 'comments', postId]`: one post's comments (infinite; pages of `CommentPage`, newest first).
 * - `['search', {q, ...filters}]`: search results (infinite); `['search', 'topics', text]`: topics to pick; `['users', 'search', q]`: the people picker.
 * - `['attachments', attachmentId]`: a downloaded attachment as a blob.
 */
export const queryKeys = {
  topics: {
    all: ['topics'] as const,
    lists: () => ['topics', 'list'] as const,
    list: (scope: 'all' | 'mine' | 'direct') => ['topics', 'list', { scope }] as const,
    /** Home's "Archived": archived topics whose title holds `q` (a list, so topic events patch it). */
    archived: (q: string) => ['topics', 'list', { scope: 'archived', q }] as const,
    detail: (topicId: string) => ['topics', 'detail', topicId] as const,
    members: (topicId: string) => ['topics', 'members', topicId] as const,
  },
  posts: {
    list: (topicId: string) => ['posts', 'list', topicId] as const,
    comments: (postId: string) => ['posts', 'comments', postId] as const,
    /** A post's or a comment's earlier versions (the "edited" dialog). */
    revisions: (id: string, kind: 'post' | 'comment' = 'post') => ['posts', 'revisions', kind, id] as const,
    /** One post on its own (the acknowledgement report's heading). */
    detail: (postId: string) => ['posts', 'detail', postId] as const,
  },
  search: (request: SearchRequest) => ['search', request] as const,
  topicFinder: (text: string) => ['search', 'topics', text] as const,
  users: (search: string) => ['users', 'search', search] as const,
  /** A person's profile card. */
  profile: (userId: string) => ['users', 'profile', userId] as const,
  attachment: (attachmentId: string) => ['attachments', attachmentId] as const,
};

/**
 * Every query key of the call tree: whatever learns of a change (a mutation now, the realtime client)
 * invalidates the right queries: invalidating a prefix such as `callTreeKeys.event(id)` refreshes
 * every filtered view of that event.
 */
export const callTreeKeys = {
  /** Everything of the call tree. */
  all: ['calltree'] as const,
  /** My trees. */
  trees: () => ['calltree', 'trees'] as const,
  /** One tree with its people. */
  tree: (treeId: string) => ['calltree', 'tree', treeId] as const,
  /** Lists of events. */
  events: () => ['calltree', 'events'] as const,
  /** Running or closed events. */
  eventList: (state: CallEventState) => ['calltree', 'events', state] as const,
  /** Events waiting for my answer (the banner). */
  pending: () => ['calltree', 'pending'] as const,
  /** One event: prefix of its roll-up, people pages and summary. */
  event: (eventId: string) => ['calltree', 'event', eventId] as const,
  /** One event's roll-up with filters. */
  rollup: (eventId: string, filters: RollupFilters) =>
    ['calltree', 'event', eventId, 'rollup', filters.status ?? '', filters.department ?? ''] as const,
  /** Further pages of one event's people with filters. */
  people: (eventId: string, filters: RollupFilters) =>
    ['calltree', 'event', eventId, 'people', filters.status ?? '', filters.department ?? ''] as const,
  /** The sub-branches of one branch of an event, counted over a department (or everyone). */
  branches: (eventId: string, managerId: string, department: string | undefined) =>
    ['calltree', 'event', eventId, 'branches', managerId, department ?? ''] as const,
  /** One person's history in an event. */
  person: (eventId: string, personId: string) => ['calltree', 'event', eventId, 'person', personId] as const,
  /** One event's summary (time to 50/90/100 %). */
  summary: (eventId: string) => ['calltree', 'event', eventId, 'summary'] as const,
};

/**
 * Query keys of my in-app notifications. The realtime client patches the bell's list from the
 * `notification.*` events in `user:<id>` (`notificationCache.ts`); while it is not connected the bell
 * polls instead.
 */
export const notificationKeys = {
  /** Everything of my notifications. */
  all: ['notifications'] as const,
  /** The bell's list (first page, with the unread count). */
  list: () => ['notifications', 'list'] as const,
  /** My notification settings (channels, kinds, quiet hours) with what the server offers. */
  settings: () => ['notifications', 'settings'] as const,
  /** Administrators: the outbox's deliveries in a state. */
  deliveries: (status: string) => ['notifications', 'deliveries', status] as const,
};

/** Query keys of the File uploads screen (administrators). */
export const uploadSettingsKeys = {
  /** The refused file types. */
  refusedTypes: ['admin', 'uploads', 'refusedTypes'] as const,
};

/** Query keys of the People screen (administrators): one list per search text. */
export const adminPeopleKeys = {
  /** Every list of the People screen. */
  all: ['admin', 'people'] as const,
  /** The list for one search text (infinite; pages of `AdminPeoplePage`). */
  list: (search: string) => ['admin', 'people', search] as const,
};
