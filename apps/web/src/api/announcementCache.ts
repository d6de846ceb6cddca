import type {
  Announcement,
  AnnouncementReport,
  AnnouncementTotals,
  PendingAnnouncementList,
  Post,
} from '@btalk/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { announcementKeys } from './announcementKeys.ts';
import { patchPost } from './postCache.ts';
import { queryKeys } from './queryKeys.ts';

/**
 * Changes to cached announcements (issue 17), from this tab's own writes and from the realtime events
 * `announcement.marked`, `announcement.progress` and `me.acknowledged`. Each is idempotent: a replayed
 * event changes nothing more. Without a cached query there is nothing to change.
 */

/** Changes one post wherever it is cached: the topic's pages and the post on its own. */
function patchEverywhere(qc: QueryClient, topicId: string, postId: string, change: (p: Post) => Post): void {
  patchPost(qc, topicId, postId, change);
  qc.setQueryData<Post>(queryKeys.posts.detail(postId), (p) => (p ? change(p) : p));
}

/**
 * A post was marked important, its request changed, or it was unmarked (null). Unmarking removes the
 * acknowledgements with the request, so the caller's own goes too.
 */
export function setPostAnnouncement(
  qc: QueryClient,
  topicId: string,
  postId: string,
  announcement: Announcement | null,
): void {
  patchEverywhere(qc, topicId, postId, (p) => ({
    ...p,
    announcement,
    acknowledgedAt: announcement ? p.acknowledgedAt : null,
  }));
}

/** New counts of an important post: on the post, and in its report when that is not filtered. */
export function setAnnouncementTotals(
  qc: QueryClient,
  topicId: string,
  postId: string,
  totals: AnnouncementTotals,
): void {
  patchEverywhere(qc, topicId, postId, (p) =>
    p.announcement ? { ...p, announcement: { ...p.announcement, totals } } : p,
  );
  qc.setQueryData<AnnouncementReport>(announcementKeys.report(postId, undefined), (report) =>
    report ? { ...report, totals, announcement: { ...report.announcement, totals } } : report,
  );
}

/** Takes an acknowledged post out of the caller's pending list. */
export function dropPending(qc: QueryClient, postId: string): void {
  qc.setQueryData<PendingAnnouncementList>(announcementKeys.pending(), (list) => {
    if (!list?.items.some((item) => item.postId === postId)) return list;
    return {
      items: list.items.filter((item) => item.postId !== postId),
      total: Math.max(0, list.total - 1),
    };
  });
}

/**
 * The caller acknowledged a post (here, in another tab, or from a notification): the post says so
 * and leaves the pending lists; `totals` when the answer carried them.
 */
export function setAcknowledged(
  qc: QueryClient,
  topicId: string,
  postId: string,
  acknowledgedAt: string,
  totals?: AnnouncementTotals,
): void {
  patchEverywhere(qc, topicId, postId, (p) => ({
    ...p,
    acknowledgedAt: p.acknowledgedAt ?? acknowledgedAt,
    announcement: p.announcement && totals ? { ...p.announcement, totals } : p.announcement,
  }));
  dropPending(qc, postId);
}

/** How long the roll-up of an important post waits for more progress before it is fetched again. */
export const REPORT_REFRESH_DELAY_MS = 300;

const reportRefreshes = new WeakMap<QueryClient, Map<string, ReturnType<typeof setTimeout>>>();

/**
 * Fetches an important post's open report and people lists again, once per burst of progress: the
 * server sends at most two a second per post, and a refetch of the roll-up costs more than a patch.
 */
function refreshReportSoon(qc: QueryClient, postId: string): void {
  let timers = reportRefreshes.get(qc);
  if (!timers) {
    timers = new Map();
    reportRefreshes.set(qc, timers);
  }
  if (timers.has(postId)) return;
  timers.set(
    postId,
    setTimeout(() => {
      timers.delete(postId);
      void qc.invalidateQueries({ queryKey: announcementKeys.post(postId) });
    }, REPORT_REFRESH_DELAY_MS),
  );
}

/** `announcement.marked`: the post's request everywhere it is cached; the pending list and report asked again. */
export function announcementMarked(
  qc: QueryClient,
  topicId: string,
  postId: string,
  announcement: Announcement | null,
): void {
  setPostAnnouncement(qc, topicId, postId, announcement);
  // Who is asked is the server's answer (the audience), and the list's order is urgent first.
  void qc.invalidateQueries({ queryKey: announcementKeys.pending() });
  void qc.invalidateQueries({ queryKey: announcementKeys.post(postId) });
}

/** `announcement.progress`: the new counts at once, and an open report fetched again once per burst. */
export function announcementProgress(
  qc: QueryClient,
  topicId: string,
  postId: string,
  totals: AnnouncementTotals,
): void {
  setAnnouncementTotals(qc, topicId, postId, totals);
  refreshReportSoon(qc, postId);
}
