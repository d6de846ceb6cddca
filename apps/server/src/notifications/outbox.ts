import type { NotificationChannel as ChannelName } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import { insertInChunks } from '../calltree/bulk.ts';
import { isPostgres } from '../db/engine.ts';
import type { Database } from '../db/index.ts';
import type { DeliveryRow } from '../db/schema.ts';
import { newId } from '../ids.ts';
import { inQuietHours, isAnnouncementKind, kindSetting, loadSettingsOf, quietHoursEnd } from './settings.ts';

/**
 * The outbox's two queues, in the database so that they survive restarts and serve several
 * instances: undispatched notifications (written by commands in their own transaction) become one
 * delivery per channel the person has on; due deliveries are claimed with a lease. On PostgreSQL both
 * take rows with `FOR UPDATE SKIP LOCKED`, so two instances never take the same row; SQLite has one
 * writer at a time, which gives the same guarantee.
 */

/** First retry after about this long; each further failure doubles it. */
const RETRY_BASE_MS = 10_000;
/** No retry waits longer than this. */
const RETRY_CAP_MS = 60 * 60_000;

/** How long to wait before try number `attempt + 1`: exponential with equal jitter, capped. */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** The note on a pending delivery that waits for the end of its person's quiet hours (an announcement). */
export const HELD_FOR_QUIET_HOURS = 'waiting for the end of quiet hours';

/** Options of dispatching. */
export interface DispatchOptions {
  /** Channels this server can use. */
  channels: ReadonlySet<ChannelName>;
  /** E-mail waits this long (and is skipped if the notification was read meanwhile). */
  emailDelayMs: number;
  now: Date;
  limit: number;
}

/**
 * Turns up to `limit` undispatched notifications into deliveries: one per channel the person has on
 * and wants that kind on; urgent ones ignore kinds and quiet hours; others in quiet hours are
 * recorded as skipped, but announcements (which no kind setting switches off) wait for the end of the
 * quiet hours. Answers how many notifications were dispatched.
 */
export async function dispatchNotifications(db: Kysely<Database>, options: DispatchOptions): Promise<number> {
  return db.transaction().execute(async (trx) => {
    let query = trx
      .selectFrom('notifications')
      .select(['id', 'user_id', 'kind', 'urgent', 'created_at'])
      .where('dispatched_at', 'is', null)
      .orderBy('created_at')
      .orderBy('id')
      .limit(options.limit);
    if (isPostgres(trx)) query = query.forUpdate().skipLocked();
    const rows = await query.execute();
    if (rows.length === 0) return 0;
    const at = options.now.toISOString();
    const settings =
      options.channels.size > 0
        ? await loadSettingsOf(
            trx,
            rows.map((r) => r.user_id),
          )
        : new Map();
    const deliveries: DeliveryRow[] = [];
    for (const row of rows) {
      const mine = settings.get(row.user_id);
      if (!mine) continue;
      const urgent = row.urgent === 1;
      const kind = kindSetting(row.kind);
      if (!urgent && kind && !mine.kinds[kind]) continue;
      const quiet = !urgent && inQuietHours(mine.quietHours, options.now);
      // An announcement asks for an acknowledgement: in quiet hours it waits for their end instead.
      const heldUntil =
        quiet && isAnnouncementKind(row.kind) ? quietHoursEnd(mine.quietHours, options.now) : null;
      const skipped = quiet && !heldUntil;
      for (const channel of options.channels) {
        if (!mine.channels[channel]) continue;
        const delayMs = channel === 'email' && !urgent ? options.emailDelayMs : 0;
        const from = heldUntil ?? options.now;
        deliveries.push({
          id: newId(),
          notification_id: row.id,
          user_id: row.user_id,
          channel,
          status: skipped ? 'skipped' : 'pending',
          urgent: urgent ? 1 : 0,
          attempts: 0,
          next_attempt_at: new Date(from.getTime() + delayMs).toISOString(),
          locked_until: null,
          locked_by: null,
          last_error: skipped ? 'quiet hours' : heldUntil ? HELD_FOR_QUIET_HOURS : null,
          sent_at: null,
          created_at: at,
          updated_at: at,
        });
      }
    }
    await insertInChunks(trx, 'notification_deliveries', deliveries);
    const ids = rows.map((r) => r.id);
    for (let i = 0; i < ids.length; i += 1000) {
      await trx
        .updateTable('notifications')
        .set({ dispatched_at: at })
        .where('id', 'in', ids.slice(i, i + 1000))
        .execute();
    }
    return rows.length;
  });
}

/** Claims up to `limit` due deliveries for `workerId` until `now + leaseMs`. */
export async function claimDueDeliveries(
  db: Kysely<Database>,
  workerId: string,
  now: Date,
  leaseMs: number,
  limit: number,
): Promise<DeliveryRow[]> {
  const at = now.toISOString();
  return db.transaction().execute(async (trx) => {
    let due = trx
      .selectFrom('notification_deliveries')
      .select('id')
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', at)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', at)]))
      .orderBy('urgent', 'desc')
      .orderBy('next_attempt_at')
      .limit(limit);
    if (isPostgres(trx)) due = due.forUpdate().skipLocked();
    return trx
      .updateTable('notification_deliveries')
      .set({ locked_until: new Date(now.getTime() + leaseMs).toISOString(), locked_by: workerId })
      .where('id', 'in', due)
      .returningAll()
      .execute();
  });
}

/** Marks deliveries this worker holds as sent. */
export async function markSent(
  db: Kysely<Database>,
  ids: string[],
  workerId: string,
  now: Date,
): Promise<void> {
  if (ids.length === 0) return;
  const at = now.toISOString();
  await db
    .updateTable('notification_deliveries')
    .set((eb) => ({
      status: 'sent',
      sent_at: at,
      updated_at: at,
      locked_until: null,
      locked_by: null,
      attempts: eb('attempts', '+', 1),
      last_error: null,
    }))
    .where('id', 'in', ids)
    .where('locked_by', '=', workerId)
    .execute();
}

/** Marks deliveries this worker holds as skipped (nothing to send to), with the reason. */
export async function markSkipped(
  db: Kysely<Database>,
  ids: string[],
  workerId: string,
  now: Date,
  reason: string,
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('notification_deliveries')
    .set({
      status: 'skipped',
      updated_at: now.toISOString(),
      locked_until: null,
      locked_by: null,
      last_error: reason,
    })
    .where('id', 'in', ids)
    .where('locked_by', '=', workerId)
    .execute();
}

/** A failure to record. */
export interface Failure {
  error: string;
  permanent?: boolean;
  retryAfterMs?: number;
}

/**
 * Records a failed try of each delivery: it is retried later (backoff with jitter, or the channel's
 * own Retry-After when longer), or becomes a dead letter after `maxAttempts` tries or a permanent
 * failure. Answers how many became dead letters.
 */
export async function markFailed(
  db: Kysely<Database>,
  rows: DeliveryRow[],
  workerId: string,
  now: Date,
  failure: Failure,
  maxAttempts: number,
  random: () => number = Math.random,
): Promise<number> {
  let dead = 0;
  const at = now.toISOString();
  const error = failure.error.slice(0, 500);
  for (const row of rows) {
    const attempts = Number(row.attempts) + 1;
    const giveUp = failure.permanent === true || attempts >= maxAttempts;
    if (giveUp) dead++;
    const wait = Math.max(retryDelayMs(attempts, random), failure.retryAfterMs ?? 0);
    await db
      .updateTable('notification_deliveries')
      .set({
        status: giveUp ? 'dead' : 'pending',
        attempts,
        last_error: error,
        next_attempt_at: giveUp ? at : new Date(now.getTime() + wait).toISOString(),
        updated_at: at,
        locked_until: null,
        locked_by: null,
      })
      .where('id', '=', row.id)
      .where('locked_by', '=', workerId)
      .execute();
  }
  return dead;
}
