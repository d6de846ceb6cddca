import type { Announcement, AnnouncementTotals } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import { reusable } from '../db/reusable.ts';
import type { AnnouncementRow } from '../db/schema.ts';

/** The counts of an announcement's audience, from its counters. */
export function totalsOf(
  row: Pick<AnnouncementRow, 'audience' | 'seen_count' | 'acknowledged_count'>,
): AnnouncementTotals {
  const audience = Number(row.audience);
  const acknowledged = Number(row.acknowledged_count);
  return { audience, seen: Number(row.seen_count), acknowledged, notYet: audience - acknowledged };
}

/** A post's acknowledgement request as every reader sees it (counts only). */
export function presentAnnouncement(row: AnnouncementRow): Announcement {
  return {
    markedAt: row.marked_at,
    urgent: Number(row.urgent) === 1,
    dueAt: row.due_at,
    remindAfterMinutes: row.remind_after_minutes === null ? null : Number(row.remind_after_minutes),
    totals: totalsOf(row),
  };
}

/** What the posts of a page need of their announcements: the request, and the viewer's acknowledgement. */
export interface PostAnnouncements {
  /** By post id: the request (posts not marked are missing). */
  requests: Map<string, Announcement>;
  /** By post id: when the viewer acknowledged it (posts they have not acknowledged are missing). */
  acknowledged: Map<string, string>;
}

const requestsAndAcknowledgements = reusable((db: Kysely<Database>, viewerId: string, postIds: string[]) =>
  db
    .selectFrom('announcements as a')
    .leftJoin('announcement_recipients as r', (j) =>
      j.onRef('r.post_id', '=', 'a.post_id').on('r.user_id', '=', viewerId),
    )
    .selectAll('a')
    .select('r.acknowledged_at as my_acknowledged_at')
    .where('a.post_id', 'in', postIds),
);

/**
 * The announcements of a page of posts and, with a viewer, when they acknowledged each: one query
 * (the viewer's row joined to the request), whatever the page's size.
 */
export async function loadPostAnnouncements(
  db: Kysely<Database>,
  postIds: string[],
  viewerId: string | null,
): Promise<PostAnnouncements> {
  const requests = new Map<string, Announcement>();
  const acknowledged = new Map<string, string>();
  if (postIds.length === 0) return { requests, acknowledged };
  const rows = await requestsAndAcknowledgements(db, viewerId ?? '', postIds);
  for (const { my_acknowledged_at, ...row } of rows) {
    requests.set(row.post_id, presentAnnouncement(row));
    if (my_acknowledged_at) acknowledged.set(row.post_id, my_acknowledged_at);
  }
  return { requests, acknowledged };
}
