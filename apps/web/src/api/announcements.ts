import type {
  AcknowledgementResult,
  AnnouncementPeoplePage,
  AnnouncementPeopleStatus,
  AnnouncementReminderResult,
  AnnouncementReport,
  AnnouncementRequest,
  PendingAnnouncementList,
  Post,
} from '@btalk/contracts';
import type { ApiClient } from './client.ts';

const enc = encodeURIComponent;

/** Filters of an announcement's report and its people list. */
export interface AnnouncementFilters {
  /** Only people of this department. */
  department?: string;
}

/** Filters of an announcement's people list. */
export interface AnnouncementPeopleFilters extends AnnouncementFilters {
  /** Whose rows: not acknowledged (the default), acknowledged, or everyone. */
  status: AnnouncementPeopleStatus;
  /** Only people under this manager (a branch's id). */
  branch?: string;
}

/** Announcements (issue 17): important posts, acknowledgements and the author's roll-up. */
export function announcementsApi(client: ApiClient) {
  return {
    /** Marks one's post important (acknowledgement requested), or changes the request. */
    mark: (postId: string, body: AnnouncementRequest) =>
      client.request<Post>('put', `/posts/${enc(postId)}/announcement`, { body }),
    /** Stops asking for acknowledgement: the post is an ordinary post again. */
    unmark: (postId: string) => client.delete<Post>(`/posts/${enc(postId)}/announcement`),
    /** Acknowledges an important post (a second press answers the first time). */
    acknowledge: (postId: string) =>
      client.post<AcknowledgementResult>(`/posts/${enc(postId)}/acknowledgement`),
    /** Says which important posts were on the caller's screen. */
    seen: (postIds: string[]) => client.post<unknown>('/announcements/seen', { postIds }),
    /** The caller's important posts not acknowledged yet, urgent first. */
    pending: () => client.get<PendingAnnouncementList>('/announcements/pending'),
    /** The author's (owners', admins') roll-up. */
    report: (postId: string, { department }: AnnouncementFilters = {}) =>
      client.get<AnnouncementReport>(`/posts/${enc(postId)}/announcement/report`, { department }),
    /** A page of the audience: those who have not acknowledged first. */
    people: (postId: string, filters: AnnouncementPeopleFilters, cursor?: string, limit = 100) =>
      client.get<AnnouncementPeoplePage>(`/posts/${enc(postId)}/announcement/people`, {
        status: filters.status,
        department: filters.department,
        branch: filters.branch,
        cursor,
        limit,
      }),
    /**
     * The roll-up as the server's CSV file, byte for byte (its UTF-8 byte-order mark kept), with times
     * in `tz` (the browser's zone).
     */
    exportCsv: (postId: string, { department }: AnnouncementFilters, tz: string | undefined) => {
      const query = new URLSearchParams();
      if (department) query.set('department', department);
      if (tz) query.set('tz', tz);
      const search = query.toString();
      return client.blob(`/posts/${enc(postId)}/announcement/export${search ? `?${search}` : ''}`);
    },
    /** Reminds those who have not acknowledged (409 when used too soon). */
    remind: (postId: string) =>
      client.post<AnnouncementReminderResult>(`/posts/${enc(postId)}/announcement/reminders`),
  };
}

/** The announcements part of the API. */
export type AnnouncementsApi = ReturnType<typeof announcementsApi>;
