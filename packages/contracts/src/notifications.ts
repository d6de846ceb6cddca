import { z } from 'zod';
import { NotificationEventName } from './eventNames.ts';
import { Cursor, TopicNotificationLevel } from './topics.ts';

export { NotificationEventName } from './eventNames.ts';

/**
 * What a notification is about. `post.mention`: you were mentioned in a post or comment;
 * `post.comment`: a comment on a post whose bell rings for you; `topic.post`: a new post in a topic
 * you follow at "all posts"; `topic.added`: you were added to a topic; `calltree.*`: call-tree
 * events (urgent: they ignore mutes and quiet hours).
 */
export const NotificationKind = {
  mention: 'post.mention',
  comment: 'post.comment',
  post: 'topic.post',
  topicAdded: 'topic.added',
  /** A message in a direct conversation (the `mention` kind setting switches it, as a mention). */
  direct: 'direct.message',
  callStarted: 'calltree.started',
  callEscalation: 'calltree.escalation',
  callReminder: 'calltree.reminder',
  /**
   * An important post asks you to acknowledge it (issue 17): every channel you have, whatever the
   * kind settings; through quiet hours and mutes only when its author chose urgent.
   */
  announcement: 'post.announcement',
  /** A reminder of an important post you have not acknowledged (the automatic one, or the author's). */
  announcementReminder: 'announcement.reminder',
} as const;
export type NotificationKind = (typeof NotificationKind)[keyof typeof NotificationKind];

/** The kinds a person may switch off for push, e-mail and Teams (call-tree kinds are always on). */
export const NotificationKindSetting = z.enum(['mention', 'comment', 'post', 'topicAdded']);
export type NotificationKindSetting = z.infer<typeof NotificationKindSetting>;

/** The channels a notification leaves the app by (the in-app list is always on). */
export const NotificationChannel = z.enum(['push', 'email', 'teams']);
export type NotificationChannel = z.infer<typeof NotificationChannel>;

/** An in-app notification of the signed-in person. */
export const Notification = z.object({
  /** The notification's id. */
  id: z.string(),
  /** What happened: one of `NotificationKind`; clients show unknown kinds by title and body. */
  kind: z.string(),
  /** Whether it is urgent (call-tree events): delivered through mutes and quiet hours. */
  urgent: z.boolean(),
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

/** Quiet hours: no push, e-mail or Teams messages between `start` and `end` in the person's time zone. */
export const QuietHours = z.strictObject({
  /** Whether quiet hours apply. */
  enabled: z.boolean(),
  /** Start, `HH:MM` in 24-hour time (may be later than `end`: quiet hours then run overnight). */
  start: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { message: 'must be a time such as 22:00' }),
  /** End, `HH:MM` in 24-hour time. */
  end: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { message: 'must be a time such as 07:00' }),
  /** An IANA time zone such as `Asia/Bangkok`. */
  timeZone: z
    .string()
    .min(1)
    .max(64)
    .refine(isTimeZone, { message: 'must be an IANA time zone such as Asia/Bangkok' }),
});
export type QuietHours = z.infer<typeof QuietHours>;

/** Time zones already checked (making a DateTimeFormat is slow; settings are read in bulk). */
const knownTimeZones = new Map<string, boolean>();

/** Whether the runtime knows `zone` as an IANA time zone. */
export function isTimeZone(zone: string): boolean {
  let known = knownTimeZones.get(zone);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone });
      known = true;
    } catch {
      known = false;
    }
    if (knownTimeZones.size < 1000) knownTimeZones.set(zone, known);
  }
  return known;
}

/** A person's notification settings. */
export const NotificationSettings = z.strictObject({
  /** Which channels are on: browser push, e-mail, Microsoft Teams. The in-app list is always on. */
  channels: z.strictObject({
    /** Browser push notifications on this person's subscribed browsers. */
    push: z.boolean(),
    /** E-mail to the person's directory address. */
    email: z.boolean(),
    /** Messages from the BTalk app in Microsoft Teams (once it is added there). */
    teams: z.boolean(),
  }),
  /** Which kinds go out by push, e-mail and Teams; the in-app list keeps every kind. */
  kinds: z.strictObject({
    /** Someone mentioned me. */
    mention: z.boolean(),
    /** A comment on a post whose bell rings for me. */
    comment: z.boolean(),
    /** A new post in a topic I follow at "all posts". */
    post: z.boolean(),
    /** I was added to a topic. */
    topicAdded: z.boolean(),
  }),
  /** Quiet hours (call-tree events still come through). */
  quietHours: QuietHours,
  /**
   * Whether the person closed the "connect Microsoft Teams" dialog that the app shows once after
   * sign-in: kept on the server so that it stays closed on every device.
   */
  teamsPromptDismissed: z.boolean(),
});
export type NotificationSettings = z.infer<typeof NotificationSettings>;

/** `PATCH /api/me/notification-settings`: any part of the settings; unknown keys are refused. */
export const UpdateNotificationSettingsRequest = z.strictObject({
  /** Channels to switch. */
  channels: NotificationSettings.shape.channels.partial().optional(),
  /** Kinds to switch. */
  kinds: NotificationSettings.shape.kinds.partial().optional(),
  /** Quiet hours, whole. */
  quietHours: QuietHours.optional(),
  /** true: the "connect Microsoft Teams" dialog was closed for good (false shows it again). */
  teamsPromptDismissed: z.boolean().optional(),
});
export type UpdateNotificationSettingsRequest = z.infer<typeof UpdateNotificationSettingsRequest>;

/** My notification settings with what this server offers. */
export const NotificationSettingsView = NotificationSettings.extend({
  /** Which channels this server can use at all (push needs WEB_PUSH, e-mail needs SMTP_URL). */
  available: z.object({ push: z.boolean(), email: z.boolean(), teams: z.boolean() }),
  /** Whether the person has added the BTalk app in Microsoft Teams (SPEC's `user_enable`). */
  teamsConnected: z.boolean(),
  /** The server's VAPID public key (base64url) for `PushManager.subscribe`; null when push is off. */
  vapidPublicKey: z.string().nullable(),
  /** How many browsers of mine receive push notifications. */
  pushSubscriptions: z.number().int().min(0),
});
export type NotificationSettingsView = z.infer<typeof NotificationSettingsView>;

const base64url = /^[A-Za-z0-9_-]+={0,2}$/;

/** How many bytes a base64url text decodes to (padding allowed). */
function decodedLength(text: string): number {
  const n = text.replace(/=+$/, '').length;
  return Math.floor((n * 3) / 4);
}

/** `POST /api/me/push-subscriptions`: a browser's `PushSubscription.toJSON()`. */
export const PushSubscriptionRequest = z.strictObject({
  /** The push service's address for this browser; must be https. */
  endpoint: z
    .string()
    .max(1024, { message: 'must be at most 1024 characters' })
    .url({ message: 'must be the push service URL of the subscription' })
    .refine((u) => u.startsWith('https://'), { message: 'must be an https:// URL' }),
  /** When the subscription expires (ms since 1970), if the browser says. */
  expirationTime: z.number().int().nullable().optional(),
  /** The browser's keys. */
  keys: z.strictObject({
    /** The browser's P-256 public key, base64url (65 bytes uncompressed). */
    p256dh: z
      .string()
      .regex(base64url, { message: 'must be base64url' })
      .refine((k) => decodedLength(k) === 65, {
        message: 'must be a 65-byte uncompressed P-256 public key',
      }),
    /** The authentication secret, base64url (16 bytes). */
    auth: z
      .string()
      .regex(base64url, { message: 'must be base64url' })
      .refine((k) => decodedLength(k) === 16, { message: 'must be a 16-byte secret' }),
  }),
});
export type PushSubscriptionRequest = z.infer<typeof PushSubscriptionRequest>;

/** `DELETE /api/me/push-subscriptions`: forget this browser. */
export const DeletePushSubscriptionRequest = z.strictObject({
  /** The subscription's endpoint. */
  endpoint: z.string().min(1).max(1024),
});
export type DeletePushSubscriptionRequest = z.infer<typeof DeletePushSubscriptionRequest>;

/** The answer to subscribing or unsubscribing a browser. */
export const PushSubscriptionResult = z.object({
  /** Whether this browser now receives my push notifications. */
  subscribed: z.boolean(),
  /** How many browsers of mine receive push notifications now. */
  pushSubscriptions: z.number().int().min(0),
});
export type PushSubscriptionResult = z.infer<typeof PushSubscriptionResult>;

/** The payload of the `notification.read` event in room `user:<id>`: notifications marked read. */
export const NotificationsReadPayload = z.object({
  /** The notifications marked read, or null when all of them were. */
  ids: z.array(z.string()).nullable(),
  /** How many of the person's notifications are still unread. */
  unreadCount: z.number().int().min(0),
});
export type NotificationsReadPayload = z.infer<typeof NotificationsReadPayload>;

/** `POST /api/notifications/unsubscribe`: stop e-mail from a link in an e-mail, without signing in. */
export const UnsubscribeRequest = z.strictObject({
  /** The signed token from the e-mail's link. */
  token: z.string().min(10).max(2000),
});
export type UnsubscribeRequest = z.infer<typeof UnsubscribeRequest>;

/** The answer to an unsubscribe. */
export const UnsubscribeResult = z.object({
  /** The e-mail address that will no longer receive notifications. */
  email: z.string(),
});
export type UnsubscribeResult = z.infer<typeof UnsubscribeResult>;

/** The state of one delivery of a notification to one channel. */
export const DeliveryStatus = z.enum(['pending', 'sent', 'skipped', 'dead']);
export type DeliveryStatus = z.infer<typeof DeliveryStatus>;

/** A delivery as an administrator sees it (dead letters). */
export const NotificationDelivery = z.object({
  /** The delivery's id. */
  id: z.string(),
  /** The channel. */
  channel: NotificationChannel,
  /** Its state. */
  status: DeliveryStatus,
  /** How many times sending was tried. */
  attempts: z.number().int(),
  /** The last failure's reason, if any. */
  lastError: z.string().nullable(),
  /** The notification's kind and title. */
  kind: z.string(),
  /** The notification's title. */
  title: z.string(),
  /** Whom it is for. */
  person: z.object({ id: z.string(), displayName: z.string(), email: z.string() }),
  /** When it was made (ISO 8601). */
  createdAt: z.string(),
  /** When it was last tried or changed (ISO 8601). */
  updatedAt: z.string(),
});
export type NotificationDelivery = z.infer<typeof NotificationDelivery>;

/** `GET /api/admin/notification-deliveries?status=dead`: deliveries in a state, newest first. */
export const NotificationDeliveryListQuery = z.object({
  /** Which state to list (default `dead`). */
  status: DeliveryStatus.default('dead'),
  /** `nextCursor` of the previous page. */
  cursor: Cursor.optional(),
  /** Page size, 1 to 100 (default 50). */
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type NotificationDeliveryListQuery = z.infer<typeof NotificationDeliveryListQuery>;

/** `:deliveryId` in a path. */
export const NotificationDeliveryParams = z.object({
  /** The delivery's id. */
  deliveryId: z.string().min(1).max(64),
});
export type NotificationDeliveryParams = z.infer<typeof NotificationDeliveryParams>;

/** A page of deliveries with how many are pending and dead in all. */
export const NotificationDeliveryList = z.object({
  /** This page. */
  items: z.array(NotificationDelivery),
  /** The next page's cursor, or null. */
  nextCursor: z.string().nullable(),
  /** Deliveries waiting to be sent (the outbox's depth). */
  pending: z.number().int(),
  /** Deliveries that failed for good. */
  dead: z.number().int(),
});
export type NotificationDeliveryList = z.infer<typeof NotificationDeliveryList>;

/** `PUT /api/topics/:topicId/notifications`: how much of this topic reaches me. */
export const SetTopicNotificationLevelRequest = z.strictObject({
  /** `all`, `mentions` or `muted`. */
  level: TopicNotificationLevel,
});
export type SetTopicNotificationLevelRequest = z.infer<typeof SetTopicNotificationLevelRequest>;

/** The realtime events of a person's notification list (room `user:<id>`), keyed by `NotificationEventName`. */
export const NotificationDomainEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal(NotificationEventName.created), payload: Notification }),
  z.object({
    type: z.literal(NotificationEventName.withdrawn),
    /** The withdrawn notifications' ids. */
    payload: z.object({ ids: z.array(z.string()) }),
  }),
  z.object({
    type: z.literal(NotificationEventName.read),
    payload: NotificationsReadPayload,
  }),
]);
export type NotificationDomainEvent = z.infer<typeof NotificationDomainEvent>;
