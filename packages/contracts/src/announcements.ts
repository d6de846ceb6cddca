import { z } from 'zod';
import { Cursor } from './topics.ts';

/**
 * Announcements (issue 17): a post marked "Important: acknowledgement requested". Everyone who may read
 * the post when it is marked is asked to acknowledge it (the audience, kept per person with when the
 * post was on their screen and when they acknowledged); readers see only the counts, the author, the
 * topic's owners and admins see who.
 */

/** Bounds of the author's reminder delay, in minutes (5 minutes to 7 days). */
export const ANNOUNCEMENT_REMINDER_MIN_MINUTES = 5;
export const ANNOUNCEMENT_REMINDER_MAX_MINUTES = 7 * 24 * 60;
/** The author's "remind again" may be used at most once per this many minutes. */
export const ANNOUNCEMENT_REMIND_AGAIN_MINUTES = 15;

/** `PUT /api/posts/:postId/announcement`: mark one's post important, or change the request's settings. */
export const AnnouncementRequest = z.object({
  /** Urgent: delivered through quiet hours and mutes (as call-tree events); otherwise like a mention. */
  urgent: z.boolean().default(false),
  /** When acknowledgement is due (ISO 8601, in the future); null: no due time. */
  dueAt: z.iso.datetime({ offset: true }).nullable().default(null),
  /** Remind those who have not acknowledged once, this many minutes after marking; null: no reminder. */
  remindAfterMinutes: z
    .number()
    .int()
    .min(ANNOUNCEMENT_REMINDER_MIN_MINUTES)
    .max(ANNOUNCEMENT_REMINDER_MAX_MINUTES)
    .nullable()
    .default(null),
});
export type AnnouncementRequest = z.infer<typeof AnnouncementRequest>;

/** The counts of an announcement's audience. "Seen" means the post was on the person's screen. */
export const AnnouncementTotals = z.object({
  /** People asked to acknowledge (everyone who could read the post when it was marked, and readers since). */
  audience: z.number().int(),
  /** Of them, how many had the post on their screen (acknowledging counts as seen). */
  seen: z.number().int(),
  /** Of them, how many acknowledged. */
  acknowledged: z.number().int(),
  /** audience - acknowledged. */
  notYet: z.number().int(),
});
export type AnnouncementTotals = z.infer<typeof AnnouncementTotals>;

/** A post's acknowledgement request, as everyone who reads the post sees it (counts only). */
export const Announcement = z.object({
  /** When the post was marked important (ISO 8601). */
  markedAt: z.string(),
  /** Urgent (see `AnnouncementRequest.urgent`). */
  urgent: z.boolean(),
  /** When acknowledgement is due; null: no due time. */
  dueAt: z.string().nullable(),
  /** The automatic reminder's delay in minutes; null: none. */
  remindAfterMinutes: z.number().int().nullable(),
  /** The counts (live through `announcement.progress`). */
  totals: AnnouncementTotals,
});
export type Announcement = z.infer<typeof Announcement>;

/** One important post the caller has not acknowledged yet (Home's strip). */
export const PendingAnnouncement = z.object({
  postId: z.string(),
  topicId: z.string(),
  /** The topic's title (a direct conversation's derived name). */
  topicTitle: z.string(),
  /** The post's number in its topic (links are `/topics/<topicId>#post-<number>`). */
  number: z.number().int(),
  /** The author's name. */
  authorName: z.string(),
  /** The post's text, cut to about 200 characters, Markdown removed. */
  excerpt: z.string(),
  urgent: z.boolean(),
  dueAt: z.string().nullable(),
  markedAt: z.string(),
});
export type PendingAnnouncement = z.infer<typeof PendingAnnouncement>;

/** `GET /api/announcements/pending`: the caller's unacknowledged important posts, urgent first, then newest. */
export const PendingAnnouncementList = z.object({
  /** At most 20. */
  items: z.array(PendingAnnouncement),
  /** How many there are in all. */
  total: z.number().int(),
});
export type PendingAnnouncementList = z.infer<typeof PendingAnnouncementList>;

/** `POST /api/posts/:postId/acknowledgement` answer (the same time again for a second press). */
export const AcknowledgementResult = z.object({
  acknowledgedAt: z.string(),
  totals: AnnouncementTotals,
});
export type AcknowledgementResult = z.infer<typeof AcknowledgementResult>;

/** `POST /api/announcements/seen`: important posts that were on the caller's screen. */
export const AnnouncementSeenRequest = z.object({
  postIds: z.array(z.string().min(1).max(64)).min(1).max(50),
});
export type AnnouncementSeenRequest = z.infer<typeof AnnouncementSeenRequest>;

/** Filters of the report and its people list. */
export const AnnouncementReportQuery = z.object({
  /** Only people of this department (totals, branches and lists). */
  department: z.string().min(1).max(200).optional(),
});
export type AnnouncementReportQuery = z.infer<typeof AnnouncementReportQuery>;

/** One department's counts. */
export const AnnouncementDepartment = AnnouncementTotals.extend({
  /** The department's name; "" for people without one. */
  name: z.string(),
});
export type AnnouncementDepartment = z.infer<typeof AnnouncementDepartment>;

/**
 * One branch of the directory's manager hierarchy: a person with reports in the audience, and the counts of
 * everyone in the audience under them (them included). The tree is the directory's manager chain.
 */
export const AnnouncementBranch = AnnouncementTotals.extend({
  /** The manager at the top of the branch (a user id). */
  id: z.string(),
  displayName: z.string(),
  /** Their own manager; null at the top. */
  managerId: z.string().nullable(),
  /** 0 at the top. */
  depth: z.number().int(),
});
export type AnnouncementBranch = z.infer<typeof AnnouncementBranch>;

/** `GET /api/posts/:postId/announcement/report`: the author's, owners' and admins' roll-up. */
export const AnnouncementReport = z.object({
  postId: z.string(),
  topicId: z.string(),
  announcement: Announcement,
  /** Counts over the department filter (the whole audience without it). */
  totals: AnnouncementTotals,
  /** Every department of the audience (unfiltered), most people first. */
  departments: z.array(AnnouncementDepartment),
  /** Each branch, depth first in name order, over the department filter. */
  branches: z.array(AnnouncementBranch),
  /** When the author last used "remind again"; null: never. */
  remindedAt: z.string().nullable(),
  /** Whether "remind again" may be used now (at most once per 15 minutes, while some have not acknowledged). */
  canRemind: z.boolean(),
});
export type AnnouncementReport = z.infer<typeof AnnouncementReport>;

/** Whose rows the people list answers. */
export const AnnouncementPeopleStatus = z.enum(['pending', 'acknowledged', 'all']);
export type AnnouncementPeopleStatus = z.infer<typeof AnnouncementPeopleStatus>;

/** `GET /api/posts/:postId/announcement/people`: a page of the audience. */
export const AnnouncementPeopleQuery = AnnouncementReportQuery.extend({
  /** Default `pending`: those who have not acknowledged. */
  status: AnnouncementPeopleStatus.default('pending'),
  /** Only people under this manager (a branch's id), them included. */
  branch: z.string().min(1).max(64).optional(),
  cursor: Cursor.optional(),
  /** 1-500, default 100. */
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export type AnnouncementPeopleQuery = z.infer<typeof AnnouncementPeopleQuery>;

/** One person of the audience, as the report's people list shows them. */
export const AnnouncementPerson = z.object({
  id: z.string(),
  displayName: z.string(),
  email: z.string(),
  department: z.string().nullable(),
  /** Their manager in the directory; null when none. */
  managerId: z.string().nullable(),
  managerName: z.string().nullable(),
  /** When the post was first on their screen; null: not yet. */
  seenAt: z.string().nullable(),
  /** When they acknowledged; null: not yet. */
  acknowledgedAt: z.string().nullable(),
});
export type AnnouncementPerson = z.infer<typeof AnnouncementPerson>;

/** A page of the people list: not acknowledged first, then by name. */
export const AnnouncementPeoplePage = z.object({
  items: z.array(AnnouncementPerson),
  nextCursor: z.string().nullable(),
});
export type AnnouncementPeoplePage = z.infer<typeof AnnouncementPeoplePage>;

/** `GET /api/posts/:postId/announcement/export?tz=`: the CSV's time zone (IANA); default the caller's. */
export const AnnouncementExportQuery = AnnouncementReportQuery.extend({
  tz: z.string().min(1).max(64).optional(),
});
export type AnnouncementExportQuery = z.infer<typeof AnnouncementExportQuery>;

/** `POST /api/posts/:postId/announcement/reminders` answer: how many people were reminded. */
export const AnnouncementReminderResult = z.object({
  reminded: z.number().int(),
  remindedAt: z.string(),
});
export type AnnouncementReminderResult = z.infer<typeof AnnouncementReminderResult>;

/** Payload of `announcement.progress` (topic room, at most twice a second per post): the new counts. */
export const AnnouncementProgress = z.object({
  postId: z.string(),
  topicId: z.string(),
  totals: AnnouncementTotals,
});
export type AnnouncementProgress = z.infer<typeof AnnouncementProgress>;
