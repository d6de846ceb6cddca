import type { NotificationChannel as ChannelName } from '@btalk/contracts';
import type { NotificationRow, UserRow } from '../../db/schema.ts';

/** One message to send to a person: one notification, or several coalesced into one. */
export interface OutgoingMessage {
  /** The notifications it tells of (one, or a burst coalesced). */
  notifications: NotificationRow[];
  /** Worded in the person's language (see notifications/wording.ts). */
  title: string;
  body: string;
  /** Absolute URL that opens the thing in BTalk. */
  url: string;
  /** Groups messages about the same thing (a push notification replaces the one with its tag). */
  tag: string;
  /** Call-tree messages: shown as urgent where the channel can. */
  urgent: boolean;
  /** The person's language. */
  locale: 'th' | 'en';
  /**
   * An important post's request (a message of one announcement notification, issue 17): the post the
   * channel's Acknowledge button acknowledges, and the request as worded ("Please acknowledge by ...",
   * the due time in the person's time zone).
   */
  acknowledge?: { postId: string; ask: string };
}

/** What became of a send. */
export type SendResult =
  | { status: 'sent' }
  /** Nothing to send to (no subscribed browser, unsubscribed): not an error, never retried. */
  | { status: 'skipped'; reason: string }
  | {
      status: 'failed';
      /** Why, for the dead-letter list (never a secret). */
      error: string;
      /** True when retrying cannot help (the delivery goes straight to dead letters). */
      permanent?: boolean;
      /** The channel's own "retry after" (e.g. HTTP 429 Retry-After), in milliseconds. */
      retryAfterMs?: number;
    };

/**
 * A way a notification leaves the app (push, e-mail, Teams). The delivery worker calls `send` with
 * one message per person and channel at a time; a channel never throws for a failed send, it answers
 * `failed` (a throw is treated as a failure to retry).
 */
export interface Channel {
  readonly name: ChannelName;
  send(person: UserRow, message: OutgoingMessage): Promise<SendResult>;
  /**
   * Sends many messages at once (a round of the worker), answering a result per message in order.
   * Optional: channels that can share work between messages (one query for every person's browsers)
   * implement it; the worker calls `send` for each message otherwise.
   */
  sendBatch?(items: { person: UserRow; message: OutgoingMessage }[]): Promise<SendResult[]>;
  /** Closes connections (SMTP pool) when the server stops. */
  close?(): Promise<void>;
}
