import { createHash } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { Kysely } from 'kysely';
import webPush from 'web-push';
import type { Database } from '../../db/index.ts';
import type { PushSubscriptionRow, UserRow } from '../../db/schema.ts';
import { now } from '../../ids.ts';
import type { VapidKeys } from '../vapid.ts';
import { ACKNOWLEDGE_WORD } from '../wording.ts';
import type { Channel, OutgoingMessage, SendResult } from './channel.ts';

/** What the push channel needs. */
export interface PushChannelOptions {
  db: Kysely<Database>;
  /** The server's VAPID identity (RFC 8292). */
  vapid: VapidKeys;
  /** How long a push service may take to answer one request (default 10 s). */
  timeoutMs?: number;
  /**
   * The URL of the Acknowledge action of a person's important post (notifications/acknowledgeLinks.ts);
   * without it, important posts come without the action.
   */
  acknowledgeUrl?: (userId: string, postId: string) => string | null;
}

/** The JSON the service worker receives. */
export interface PushPayload {
  title: string;
  body: string;
  url: string;
  tag: string;
  urgent: boolean;
  /** The notifications it tells of (the service worker may mark them read when clicked). */
  notificationIds: string[];
  /** An important post's request: the notification's buttons (`acknowledge`, in the person's language). */
  actions?: { action: 'acknowledge'; title: string }[];
  /** Where the `acknowledge` action POSTs (no session: a signed token of the person and the post). */
  acknowledgeUrl?: string;
}

/**
 * Largest payload JSON, in bytes. Push services take 4096 bytes of encrypted record (RFC 8291: the
 * 86-byte header, the padding delimiter and the 16-byte tag leave 3993 bytes of plaintext); staying
 * well under leaves room for services that count differently.
 */
export const MAX_PAYLOAD_BYTES = 3000;
/** Longest title, in characters (a notification shows one line of it anyway). */
const MAX_TITLE_CHARS = 150;
/** Most notification ids carried (a coalesced burst may be long; the first ones are enough to open it). */
const MAX_NOTIFICATION_IDS = 20;
/** How long a push service keeps a message for a browser that is offline. */
const TTL_SECONDS = 24 * 60 * 60;
/**
 * Urgent (call-tree) messages are about an event under way: one delivered hours late misleads, and
 * the call tree's reminders and escalations follow anyway.
 */
const URGENT_TTL_SECONDS = 60 * 60;
const DEFAULT_TIMEOUT_MS = 10_000;
/** Push requests under way at once in a batch. */
const BATCH_CONCURRENCY = 64;
/** Lifetime of a VAPID token (RFC 8292 allows up to 24 hours). */
const VAPID_TOKEN_SECONDS = 12 * 60 * 60;

/** Byte length of a string as a JSON string literal (without its quotes). */
const jsonBytes = (text: string) => Buffer.byteLength(JSON.stringify(text)) - 2;

/** `text` cut at a character boundary (with an ellipsis) so that its JSON takes at most `maxBytes`. */
function clip(text: string, maxBytes: number): string {
  if (jsonBytes(text) <= maxBytes) return text;
  const chars = [...text];
  let low = 0;
  let high = chars.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (jsonBytes(`${chars.slice(0, mid).join('')}…`) <= maxBytes) low = mid;
    else high = mid - 1;
  }
  return low > 0 ? `${chars.slice(0, low).join('')}…` : '';
}

/** `text` cut to at most `max` characters (with an ellipsis). */
function clipChars(text: string, max: number): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : text;
}

/**
 * The payload of a message, its body cut so that the whole stays under MAX_PAYLOAD_BYTES. An important
 * post's request carries the Acknowledge action and its URL when `acknowledgeUrl` is given.
 */
export function pushPayload(message: OutgoingMessage, acknowledgeUrl?: string | null): PushPayload {
  const payload: PushPayload = {
    title: clipChars(message.title, MAX_TITLE_CHARS),
    body: '',
    url: message.url,
    tag: message.tag,
    urgent: message.urgent,
    notificationIds: message.notifications.slice(0, MAX_NOTIFICATION_IDS).map((n) => n.id),
  };
  if (message.acknowledge && acknowledgeUrl) {
    payload.actions = [{ action: 'acknowledge', title: ACKNOWLEDGE_WORD[message.locale] }];
    payload.acknowledgeUrl = acknowledgeUrl;
  }
  const room = MAX_PAYLOAD_BYTES - Buffer.byteLength(JSON.stringify(payload));
  payload.body = clip(message.body, Math.max(0, room));
  return payload;
}

/**
 * The Topic header (RFC 8030 5.4): a push service keeps only the newest undelivered message of a
 * topic. At most 32 base64url characters, so a hash of the tag rather than the tag itself.
 */
export function pushTopic(tag: string): string {
  return createHash('sha256').update(tag).digest('base64url').slice(0, 32);
}

/** Milliseconds to wait from a Retry-After header (seconds or an HTTP date), if it says. */
export function retryAfterMs(header: string | null, at = Date.now()): number | undefined {
  if (!header) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - at);
}

/** What became of the message at one browser. */
type BrowserOutcome =
  | { kind: 'accepted' }
  /** The push service no longer knows the subscription (404, 410): forget it. */
  | { kind: 'gone' }
  | { kind: 'failed'; error: string; permanent: boolean; retryAfterMs?: number };

/** The host of a push service, for error texts (the endpoint's path identifies the browser: left out). */
function hostOf(endpoint: string): string {
  try {
    return new URL(endpoint).host;
  } catch {
    return 'an invalid endpoint';
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Kept-alive connections to push services (a round sends thousands of requests to a few hosts). */
const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 64 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 64 }),
};

/**
 * POSTs a push message and answers its status and Retry-After. Node's http client rather than fetch:
 * it costs a third of the CPU per request, which is what bounds a burst of thousands of messages; a
 * push service never redirects, and none is followed.
 */
function post(
  endpoint: string,
  headers: Record<string, string>,
  body: Uint8Array,
  timeoutMs: number,
): Promise<{ status: number; retryAfter: string | null }> {
  return new Promise((resolve, reject) => {
    const url = new URL(endpoint);
    const secure = url.protocol === 'https:';
    const request = (secure ? https : http).request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'Content-Length': String(body.byteLength) },
        agent: secure ? agents.https : agents.http,
        timeout: timeoutMs,
      },
      (response) => {
        // The answer's body is not needed, but reading it frees the connection for the next request.
        response.resume();
        response.on('end', () => {
          const retryAfter = response.headers['retry-after'];
          resolve({
            status: response.statusCode ?? 0,
            retryAfter: typeof retryAfter === 'string' ? retryAfter : null,
          });
        });
        response.on('error', reject);
      },
    );
    request.on('timeout', () => {
      const error = new Error(`no answer within ${timeoutMs} ms`);
      error.name = 'TimeoutError';
      request.destroy(error);
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** What a message's outcomes at each of its person's browsers make of it. */
function resultOf(outcomes: BrowserOutcome[]): SendResult {
  if (outcomes.some((o) => o.kind === 'accepted')) return { status: 'sent' };
  const failures = outcomes.filter((o) => o.kind === 'failed');
  if (failures.length === 0) return { status: 'skipped', reason: 'no subscribed browser' };
  // Retried while any browser may still take it; after the longest wait any push service asked for.
  const waits = failures.flatMap((f) => (f.retryAfterMs === undefined ? [] : [f.retryAfterMs]));
  return {
    status: 'failed',
    error: [...new Set(failures.map((f) => f.error))].join('; '),
    permanent: failures.every((f) => f.permanent),
    ...(waits.length > 0 ? { retryAfterMs: Math.max(...waits) } : {}),
  };
}

/**
 * The Web Push channel (RFC 8030, 8291, 8292): each of the person's subscribed browsers receives the
 * message through its push service, encrypted for it and signed with the server's VAPID key.
 * Subscriptions the push service says are gone (404, 410) are deleted.
 */
export function createPushChannel(options: PushChannelOptions): Channel {
  const { db, vapid } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const signed = new Map<string, { header: string; renewAt: number }>();

  /** The VAPID Authorization header for a push service's origin, signed once per VAPID_TOKEN_SECONDS. */
  function vapidHeader(audience: string): string {
    const at = Date.now();
    const kept = signed.get(audience);
    if (kept && kept.renewAt > at) return kept.header;
    const expiresAt = Math.floor(at / 1000) + VAPID_TOKEN_SECONDS;
    const { Authorization } = webPush.getVapidHeaders(
      audience,
      vapid.subject,
      vapid.publicKey,
      vapid.privateKey,
      'aes128gcm',
      expiresAt,
    );
    // Renewed at half its life, so that a token in flight never expires at the push service.
    signed.set(audience, { header: Authorization, renewAt: at + (VAPID_TOKEN_SECONDS * 1000) / 2 });
    return Authorization;
  }

  async function deliver(
    subscription: PushSubscriptionRow,
    payload: string,
    message: OutgoingMessage,
  ): Promise<BrowserOutcome> {
    const host = hostOf(subscription.endpoint);
    let headers: Record<string, string>;
    let body: Uint8Array;
    try {
      // web-push encrypts (RFC 8291) and signs (RFC 8292); its sendNotification would also send, but
      // only over https.request, which cannot reach an http:// push service (the local one of tests
      // and benchmarks), and it signs a new VAPID token for every message, a third of the cost of a
      // send. The token is signed once per push service for hours instead (vapidHeader), and fetch
      // sends, with a timeout over the whole exchange.
      const encrypted = webPush.encrypt(subscription.p256dh, subscription.auth, payload, 'aes128gcm');
      body = new Uint8Array(encrypted.cipherText);
      headers = {
        'Content-Encoding': 'aes128gcm',
        'Content-Type': 'application/octet-stream',
        // An important post's request stays worth delivering late, urgent or not.
        TTL: String(message.urgent && !message.acknowledge ? URGENT_TTL_SECONDS : TTL_SECONDS),
        Urgency: message.urgent ? 'high' : 'normal',
        Topic: pushTopic(message.tag),
        Authorization: vapidHeader(new URL(subscription.endpoint).origin),
      };
    } catch (error) {
      // A subscription whose keys cannot be used, or a VAPID identity web-push refuses: no retry helps.
      return {
        kind: 'failed',
        error: `push message could not be prepared: ${errorText(error)}`,
        permanent: true,
      };
    }
    let response: { status: number; retryAfter: string | null };
    try {
      response = await post(subscription.endpoint, headers, body, timeoutMs);
    } catch (error) {
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      return {
        kind: 'failed',
        error: timedOut
          ? `push service (${host}) did not answer within ${timeoutMs} ms`
          : `push service (${host}) unreachable: ${errorText(error)}`,
        permanent: false,
      };
    }
    const status = response.status;
    if (status >= 200 && status < 300) return { kind: 'accepted' };
    if (status === 404 || status === 410) return { kind: 'gone' };
    const wait = retryAfterMs(response.retryAfter);
    return {
      kind: 'failed',
      error: `push service answered ${status} (${host})`,
      // 4xx but timeout and rate limit: the request itself is wrong (too large, VAPID refused); resending it fails again.
      permanent: status >= 400 && status < 500 && status !== 408 && status !== 429,
      ...(wait === undefined ? {} : { retryAfterMs: wait }),
    };
  }

  /**
   * Sends each message to every browser of its person: one query for all their subscriptions, the
   * requests BATCH_CONCURRENCY at a time, one update for the accepted and one delete for the gone.
   */
  async function sendAll(items: { person: UserRow; message: OutgoingMessage }[]): Promise<SendResult[]> {
    const people = [...new Set(items.map((i) => i.person.id))];
    const browsers = new Map<string, PushSubscriptionRow[]>();
    for (let i = 0; i < people.length; i += 1000) {
      const rows = await db
        .selectFrom('push_subscriptions')
        .selectAll()
        .where('user_id', 'in', people.slice(i, i + 1000))
        .execute();
      for (const r of rows) browsers.set(r.user_id, [...(browsers.get(r.user_id) ?? []), r]);
    }
    const jobs = items.flatMap((item, index) => {
      const ask = item.message.acknowledge;
      const link = ask ? options.acknowledgeUrl?.(item.person.id, ask.postId) : null;
      const payload = JSON.stringify(pushPayload(item.message, link));
      return (browsers.get(item.person.id) ?? []).map((subscription) => ({ index, subscription, payload }));
    });
    const outcomes: BrowserOutcome[] = new Array(jobs.length);
    let next = 0;
    const lanes = Array.from({ length: Math.min(BATCH_CONCURRENCY, jobs.length) }, async () => {
      for (let j = next++; j < jobs.length; j = next++) {
        const job = jobs[j]!;
        outcomes[j] = await deliver(job.subscription, job.payload, items[job.index]!.message);
      }
    });
    await Promise.all(lanes);

    const accepted = jobs
      .filter((_, j) => outcomes[j]?.kind === 'accepted')
      .map((job) => job.subscription.id);
    const gone = jobs.filter((_, j) => outcomes[j]?.kind === 'gone').map((job) => job.subscription.id);
    for (let i = 0; i < accepted.length; i += 1000) {
      await db
        .updateTable('push_subscriptions')
        .set({ last_success_at: now() })
        .where('id', 'in', accepted.slice(i, i + 1000))
        .execute();
    }
    for (let i = 0; i < gone.length; i += 1000) {
      await db
        .deleteFrom('push_subscriptions')
        .where('id', 'in', gone.slice(i, i + 1000))
        .execute();
    }
    return items.map((_, index) => resultOf(outcomes.filter((_, j) => jobs[j]!.index === index)));
  }

  return {
    name: 'push',
    async send(person: UserRow, message: OutgoingMessage): Promise<SendResult> {
      const [result] = await sendAll([{ person, message }]);
      return result!;
    },
    sendBatch: sendAll,
  };
}
