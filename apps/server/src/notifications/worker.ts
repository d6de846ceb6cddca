import type { NotificationChannel as ChannelName } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { DeliveryRow, NotificationRow, UserRow } from '../db/schema.ts';
import type { EventBus } from '../events/bus.ts';
import { newId } from '../ids.ts';
import type { Channel, OutgoingMessage, SendResult } from './channels/channel.ts';
import { claimDueDeliveries, dispatchNotifications, markFailed, markSent, markSkipped } from './outbox.ts';
import { isAnnouncementKind, loadSettingsOf } from './settings.ts';
import { announcementAsk, pathOf, pathOfMany, wordMany, wordOne } from './wording.ts';

/** How long after a commit the worker looks at the outbox (commits in between share the look). */
const COMMIT_WAKE_MS = 50;

/** How a try of deliveries ended: sent, nothing to send, to be retried, or a dead letter. */
export type DeliveryOutcome = 'sent' | 'skipped' | 'retry' | 'dead';

/** Told how each try of deliveries ended (the metrics count them: metrics/metrics.ts). */
export interface DeliveryObserver {
  /** `count` deliveries on `channel` ended their try with `outcome`. */
  delivered(channel: ChannelName, outcome: DeliveryOutcome, count: number): void;
}

/** What the worker needs. */
export interface WorkerOptions {
  db: Kysely<Database>;
  channels: Channel[];
  /** The web app's origin, for links. */
  publicUrl: string;
  /** Wakes the worker after commits (new notifications); a poll is the fallback. */
  bus?: EventBus;
  /** The clock; tests pass a controllable one. */
  clock?: () => Date;
  /** Jitter's randomness (tests pass a fixed one). */
  random?: () => number;
  maxAttempts: number;
  emailDelayMs: number;
  /** How often to look for due deliveries without a wake-up (retries, delayed e-mail). */
  pollMs?: number;
  /** How long a claimed delivery is this worker's; after that another instance may retry it. */
  leaseMs?: number;
  /** Deliveries claimed per round. */
  batchSize?: number;
  /** Sends under way at once. */
  concurrency?: number;
  onError?: (error: unknown) => void;
  /** Told how each try ended. */
  observer?: DeliveryObserver;
}

/** One message to send: a person's deliveries on a channel, worded. */
interface Outgoing {
  channel: Channel;
  person: UserRow;
  deliveries: DeliveryRow[];
  message: OutgoingMessage;
}

/** The state of the important posts a round's announcements are about. */
interface Requests {
  /** Posts still marked important. */
  marked: Set<string>;
  /** `post\0person` of requests the person has acknowledged. */
  acknowledged: Set<string>;
}

/** What a round did. */
export interface RoundResult {
  dispatched: number;
  sent: number;
  skipped: number;
  failed: number;
  dead: number;
}

/**
 * The delivery worker: turns the outbox's notifications into deliveries and sends them through the
 * channels, each person's burst on a channel coalesced into one message (urgent ones alone). Every
 * instance runs one; rows are claimed so that each delivery is sent by one of them.
 */
export class NotificationWorker {
  readonly id = newId();
  readonly #o: Required<Omit<WorkerOptions, 'bus' | 'onError' | 'observer'>> &
    Pick<WorkerOptions, 'bus' | 'onError' | 'observer'>;
  readonly #channels: Map<ChannelName, Channel>;
  #timer: NodeJS.Timeout | null = null;
  #soon: NodeJS.Timeout | null = null;
  #unsubscribe: (() => void) | null = null;
  #running: Promise<void> | null = null;
  #again = false;
  #stopped = true;

  constructor(options: WorkerOptions) {
    this.#o = {
      clock: () => new Date(),
      random: Math.random,
      pollMs: 1000,
      leaseMs: 60_000,
      batchSize: 500,
      concurrency: 32,
      ...options,
    };
    this.#channels = new Map(options.channels.map((c) => [c.name, c]));
  }

  /** Starts working: after every commit and every `pollMs`. */
  start(): void {
    this.#stopped = false;
    this.#unsubscribe = this.#o.bus?.onCommitted(() => this.#wakeSoon()) ?? null;
    const tick = () => {
      this.wake();
      this.#timer = setTimeout(tick, this.#o.pollMs);
      this.#timer.unref();
    };
    tick();
  }

  /**
   * A commit asks for a round after COMMIT_WAKE_MS: most commits (posts, reads, answers) write no
   * notification, and under load a round per commit would add two transactions to every write.
   * Commits in that window share one round; a notification waits at most that long more.
   */
  #wakeSoon(): void {
    if (this.#soon) return;
    this.#soon = setTimeout(() => {
      this.#soon = null;
      this.wake();
    }, COMMIT_WAKE_MS);
    this.#soon.unref();
  }

  /** Asks for a round now (one at a time; a wake during a round runs another after it). */
  wake(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = (async () => {
      do {
        this.#again = false;
        try {
          await this.drain();
        } catch (error) {
          this.#o.onError?.(error);
        }
      } while (this.#again && !this.#stopped);
      this.#running = null;
    })();
  }

  /** Stops, waiting for the round under way. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#unsubscribe?.();
    if (this.#timer) clearTimeout(this.#timer);
    if (this.#soon) clearTimeout(this.#soon);
    await this.#running;
    await Promise.all([...this.#channels.values()].map((c) => c.close?.()));
  }

  /** Runs rounds until nothing is due (at most `maxRounds`); answers the totals. */
  async drain(maxRounds = 100): Promise<RoundResult> {
    const total: RoundResult = { dispatched: 0, sent: 0, skipped: 0, failed: 0, dead: 0 };
    for (let i = 0; i < maxRounds; i++) {
      const r = await this.runOnce();
      for (const k of Object.keys(total) as (keyof RoundResult)[]) total[k] += r[k];
      if (r.dispatched === 0 && r.sent + r.skipped + r.failed + r.dead === 0) break;
    }
    return total;
  }

  /** One round: dispatch a batch of notifications, then claim and send a batch of due deliveries. */
  async runOnce(): Promise<RoundResult> {
    const { db, batchSize } = this.#o;
    const result: RoundResult = { dispatched: 0, sent: 0, skipped: 0, failed: 0, dead: 0 };
    result.dispatched = await dispatchNotifications(db, {
      channels: new Set(this.#channels.keys()),
      emailDelayMs: this.#o.emailDelayMs,
      now: this.#o.clock(),
      limit: batchSize,
    });
    const claimed = await claimDueDeliveries(db, this.id, this.#o.clock(), this.#o.leaseMs, batchSize);
    if (claimed.length === 0) return result;
    const groups = new Map<string, DeliveryRow[]>();
    for (const d of claimed) {
      const key = `${d.user_id}\u0000${d.channel}`;
      groups.set(key, [...(groups.get(key) ?? []), d]);
    }
    const [notifications, people] = await Promise.all([
      this.#load(
        'notifications',
        claimed.map((d) => d.notification_id),
      ),
      this.#load(
        'users',
        claimed.map((d) => d.user_id),
      ),
    ]);
    // Announcements tell their due time in the person's time zone (their quiet hours' zone).
    const asking = claimed.filter((d) => {
      const n = notifications.get(d.notification_id) as NotificationRow | undefined;
      return n !== undefined && isAnnouncementKind(n.kind);
    });
    const zones = new Map<string, string>();
    let requests: Requests = { marked: new Set(), acknowledged: new Set() };
    if (asking.length > 0) {
      const settings = await loadSettingsOf(
        this.#o.db,
        asking.map((d) => d.user_id),
      );
      for (const [userId, mine] of settings) zones.set(userId, mine.quietHours.timeZone);
      requests = await this.#requests(
        asking.map((d) => (notifications.get(d.notification_id) as NotificationRow).post_id),
        asking.map((d) => d.user_id),
      );
    }
    const outgoing = await this.#prepare(
      [...groups.values()],
      notifications as Map<string, NotificationRow>,
      people as Map<string, UserRow>,
      { zones, ...requests },
      result,
    );
    await this.#send(outgoing, result);
    return result;
  }

  async #load(
    table: 'notifications' | 'users',
    ids: string[],
  ): Promise<Map<string, NotificationRow | UserRow>> {
    const unique = [...new Set(ids)];
    const found = new Map<string, NotificationRow | UserRow>();
    for (let i = 0; i < unique.length; i += 1000) {
      const rows = await this.#o.db
        .selectFrom(table)
        .selectAll()
        .where('id', 'in', unique.slice(i, i + 1000))
        .execute();
      for (const r of rows) found.set(r.id, r as NotificationRow | UserRow);
    }
    return found;
  }

  /**
   * Of these posts, those still marked important, and of these posts and people, the `post\0person`
   * pairs of requests acknowledged already: a held or late announcement, or a reminder, of a request
   * taken back or acknowledged meanwhile is not sent.
   */
  async #requests(postIds: (string | null)[], userIds: string[]): Promise<Requests> {
    const posts = [...new Set(postIds.filter((id): id is string => id !== null))];
    const users = [...new Set(userIds)];
    const found: Requests = { marked: new Set(), acknowledged: new Set() };
    for (let i = 0; i < posts.length; i += 500) {
      const chunk = posts.slice(i, i + 500);
      const marked = await this.#o.db
        .selectFrom('announcements')
        .select('post_id')
        .where('post_id', 'in', chunk)
        .execute();
      for (const r of marked) found.marked.add(r.post_id);
      for (let j = 0; j < users.length; j += 500) {
        const rows = await this.#o.db
          .selectFrom('announcement_recipients')
          .select(['post_id', 'user_id'])
          .where('post_id', 'in', chunk)
          .where('user_id', 'in', users.slice(j, j + 500))
          .where('acknowledged_at', 'is not', null)
          .execute();
        for (const r of rows) found.acknowledged.add(`${r.post_id}\u0000${r.user_id}`);
      }
    }
    return found;
  }

  /**
   * Turns each person's due deliveries on a channel into messages: urgent ones and announcements
   * alone, the rest as one. Deliveries with nothing left to send (withdrawn, read before its e-mail,
   * an important post acknowledged meanwhile, person disabled, channel gone) are marked skipped here.
   */
  async #prepare(
    groups: DeliveryRow[][],
    notifications: Map<string, NotificationRow>,
    people: Map<string, UserRow>,
    asking: Requests & { zones: Map<string, string> },
    result: RoundResult,
  ): Promise<Outgoing[]> {
    const skipped = new Map<string, string[]>();
    const skip = (reason: string, rows: DeliveryRow[]) => {
      skipped.set(reason, [...(skipped.get(reason) ?? []), ...rows.map((d) => d.id)]);
      result.skipped += rows.length;
      if (rows.length > 0) this.#o.observer?.delivered(rows[0]!.channel, 'skipped', rows.length);
    };
    const outgoing: Outgoing[] = [];
    for (const group of groups) {
      const channel = this.#channels.get(group[0]!.channel);
      const person = people.get(group[0]!.user_id);
      if (!channel) {
        skip('channel not configured', group);
        continue;
      }
      if (!person || person.disabled) {
        skip('person disabled', group);
        continue;
      }
      // A notification deleted meanwhile (withdrawn) has no row; one read in the app needs no e-mail.
      const stale = (d: DeliveryRow) => {
        const n = notifications.get(d.notification_id);
        return !n || (channel.name === 'email' && n.read_at !== null);
      };
      skip(
        'read in the app or withdrawn',
        group.filter((d) => stale(d)),
      );
      // An important post's request taken back, or acknowledged, since the notification was made.
      const answered = (d: DeliveryRow) => {
        const n = notifications.get(d.notification_id)!;
        if (!isAnnouncementKind(n.kind)) return null;
        if (n.post_id === null || !asking.marked.has(n.post_id))
          return 'no longer asks for an acknowledgement';
        return asking.acknowledged.has(`${n.post_id}\u0000${d.user_id}`) ? 'acknowledged already' : null;
      };
      const fresh = group.filter((d) => !stale(d));
      for (const reason of ['no longer asks for an acknowledgement', 'acknowledged already']) {
        skip(
          reason,
          fresh.filter((d) => answered(d) === reason),
        );
      }
      const sendable = fresh.filter((d) => answered(d) === null);
      // An announcement is a message of its own: its Acknowledge button acts on that one post.
      const alone = (d: DeliveryRow) =>
        d.urgent === 1 || isAnnouncementKind(notifications.get(d.notification_id)!.kind);
      const batches = [
        ...sendable.filter((d) => alone(d)).map((d) => [d]),
        ...(sendable.some((d) => !alone(d)) ? [sendable.filter((d) => !alone(d))] : []),
      ];
      for (const batch of batches) {
        const rows = batch.map((d) => notifications.get(d.notification_id)!);
        const message = this.#compose(person, rows, asking.zones.get(person.id));
        outgoing.push({ channel, person, deliveries: batch, message });
      }
    }
    for (const [reason, ids] of skipped) {
      if (ids.length > 0) await markSkipped(this.#o.db, ids, this.id, this.#o.clock(), reason);
    }
    return outgoing;
  }

  /** Sends the round's messages, channel by channel, and records each outcome. */
  async #send(outgoing: Outgoing[], result: RoundResult): Promise<void> {
    const byChannel = new Map<Channel, Outgoing[]>();
    for (const o of outgoing) byChannel.set(o.channel, [...(byChannel.get(o.channel) ?? []), o]);
    const outcomes = new Map<Outgoing, SendResult>();
    const failed = (error: unknown): SendResult => ({
      status: 'failed',
      error: error instanceof Error ? error.message : String(error),
    });
    await Promise.all(
      [...byChannel].map(async ([channel, items]) => {
        if (channel.sendBatch) {
          const results = await channel
            .sendBatch(items)
            .catch((error: unknown) => items.map(() => failed(error)));
          for (const [i, item] of items.entries()) {
            outcomes.set(item, results[i] ?? failed('no result from the channel'));
          }
          return;
        }
        const queue = [...items];
        const lanes = Array.from({ length: Math.min(this.#o.concurrency, queue.length) }, async () => {
          for (let item = queue.shift(); item; item = queue.shift()) {
            outcomes.set(item, await channel.send(item.person, item.message).catch(failed));
          }
        });
        await Promise.all(lanes);
      }),
    );
    const at = this.#o.clock();
    const sent: string[] = [];
    const skipped = new Map<string, string[]>();
    for (const [item, outcome] of outcomes) {
      const ids = item.deliveries.map((d) => d.id);
      const observe = (how: DeliveryOutcome, count: number) => {
        if (count > 0) this.#o.observer?.delivered(item.channel.name, how, count);
      };
      if (outcome.status === 'sent') {
        sent.push(...ids);
        result.sent += ids.length;
        observe('sent', ids.length);
      } else if (outcome.status === 'skipped') {
        skipped.set(outcome.reason, [...(skipped.get(outcome.reason) ?? []), ...ids]);
        result.skipped += ids.length;
        observe('skipped', ids.length);
      } else {
        const dead = await markFailed(
          this.#o.db,
          item.deliveries,
          this.id,
          at,
          outcome,
          this.#o.maxAttempts,
          this.#o.random,
        );
        result.dead += dead;
        result.failed += ids.length - dead;
        observe('dead', dead);
        observe('retry', ids.length - dead);
      }
    }
    for (let i = 0; i < sent.length; i += 1000)
      await markSent(this.#o.db, sent.slice(i, i + 1000), this.id, at);
    for (const [reason, ids] of skipped) {
      for (let i = 0; i < ids.length; i += 1000) {
        await markSkipped(this.#o.db, ids.slice(i, i + 1000), this.id, at, reason);
      }
    }
  }

  #compose(person: UserRow, rows: NotificationRow[], timeZone: string | undefined): OutgoingMessage {
    const locale = person.locale === 'th' ? 'th' : 'en';
    const sorted = [...rows].sort((a, b) => a.created_at.localeCompare(b.created_at));
    const options = { ...(timeZone ? { timeZone } : {}), now: this.#o.clock() };
    const words = sorted.length === 1 ? wordOne(sorted[0]!, locale, options) : wordMany(sorted, locale);
    const path = sorted.length === 1 ? pathOf(sorted[0]!) : pathOfMany(sorted);
    const first = sorted[0]!;
    const ask = sorted.length === 1 ? announcementAsk(first, locale, options) : null;
    return {
      notifications: sorted,
      title: words.title,
      body: words.body,
      url: `${this.#o.publicUrl}${path}`,
      // An important post's request replaces its earlier request (a reminder), not its mentions.
      tag:
        isAnnouncementKind(first.kind) && first.post_id
          ? `announcement:${first.post_id}`
          : (first.post_id ?? first.topic_id ?? first.id),
      urgent: sorted.some((r) => r.urgent === 1),
      locale,
      ...(ask !== null && first.post_id ? { acknowledge: { postId: first.post_id, ask } } : {}),
    };
  }
}
