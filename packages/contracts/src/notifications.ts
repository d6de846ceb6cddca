import { z } from 'zod';
import { Cursor } from './topics.ts';

/** An in-app notification of the signed-in person (escalations, reminders, events started). */
export const Notification = z.object({
  /** The notification's id. */
  id: z.string(),
  /** What happened: `calltree.started`, `calltree.escalation` or `calltree.reminder`; clients show unknown kinds by title and body. */
  kind: z.string(),
  /** Title in English, for clients that do not know the kind. */
  title: z.string(),
  /** Text in English, for clients that do not know the kind. */
  body: z.string(),
  /** Ids and values the client needs to word the notification and open the thing (e.g. `eventId`). */
  data: z.record(z.string(), z.unknown()),
  /** When it was made (ISO 8601). */
  createdAt: z.string(),
  /** When the person marked it read (ISO 8601); null while unread. */
  readAt: z.string().nullable(),
});
export type Notification = z.infer<typeof Notification>;

/** `GET /api/notifications?cursor=&limit=`: my notifications, newest first. */
export const NotificationListQuery = z.object({
  /** `nextCursor` of the previous page; absent for the first page. */
  cursor: Cursor.optional(),
  /** How many notifications to answer, 1 to 100 (default 20). */
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type NotificationListQuery = z.infer<typeof NotificationListQuery>;

/** A page of my notifications and how many of all of them are unread. */
export const NotificationList = z.object({
  /** This page's notifications, newest first. */
  items: z.array(Notification),
  /** Pass as `?cursor=` to get the next page; null when there is none. */
  nextCursor: z.string().nullable(),
  /** How many of my notifications (all pages) are unread. */
  unreadCount: z.number().int().min(0),
});
export type NotificationList = z.infer<typeof NotificationList>;

/** `POST /api/notifications/read`: mark the given notifications, or all of mine, as read. */
export const MarkNotificationsReadRequest = z
  .object({
    /** Ids of my notifications to mark read (1 to 100); leave out when `all` is true. */
    ids: z.array(z.string().min(1).max(64)).min(1).max(100).optional(),
    /** True to mark every notification of mine read. */
    all: z.literal(true).optional(),
  })
  .refine((b) => (b.ids === undefined) !== (b.all === undefined), {
    message: 'give either ids (the notifications to mark read) or all: true, not both',
    path: ['ids'],
  });
export type MarkNotificationsReadRequest = z.infer<typeof MarkNotificationsReadRequest>;

/** The answer to marking notifications read. */
export const MarkNotificationsReadResult = z.object({
  /** How many notifications changed from unread to read. */
  marked: z.number().int().min(0),
  /** How many of my notifications are still unread. */
  unreadCount: z.number().int().min(0),
});
export type MarkNotificationsReadResult = z.infer<typeof MarkNotificationsReadResult>;
