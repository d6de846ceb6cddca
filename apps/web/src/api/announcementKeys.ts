import type { AnnouncementPeopleFilters } from './announcements.ts';

// Apart from queryKeys.ts: nothing on the first screen uses them (bench/web-size.ts).
/**
 * Query keys of announcements (important posts, issue 17). The realtime client drops acknowledged posts
 * from `pending` (`me.acknowledged`), fetches it again on `announcement.marked`, and refreshes one
 * post's report and people (the prefix `post(postId)`) on `announcement.progress`.
 */
export const announcementKeys = {
  /** Everything of announcements. */
  all: ['announcements'] as const,
  /** My important posts not acknowledged yet (Home's strip, the topic's strip). */
  pending: () => ['announcements', 'pending'] as const,
  /** One important post's roll-up: prefix of its report and people lists. */
  post: (postId: string) => ['announcements', 'post', postId] as const,
  /** One post's report with a department filter ('' for none). */
  report: (postId: string, department: string | undefined) =>
    ['announcements', 'post', postId, 'report', department ?? ''] as const,
  /** One post's people list with filters (infinite; pages of `AnnouncementPeoplePage`). */
  people: (postId: string, filters: AnnouncementPeopleFilters) =>
    [
      'announcements',
      'post',
      postId,
      'people',
      filters.status,
      filters.department ?? '',
      filters.branch ?? '',
    ] as const,
};
