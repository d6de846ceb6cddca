import { randomUUID } from 'node:crypto';
import { CallTreeEventName, NotificationKind } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { EventBus } from '../events/bus.ts';
import { recordEvent } from '../events/eventLog.ts';
import { newId } from '../ids.ts';
import { snapshotChain } from '../policies/calltree.ts';
import { notifyCallTree } from './notify.ts';

/** Name of the lease row that the escalation scheduler holds. */
export const ESCALATION_LEASE = 'calltree-escalation';

/**
 * Takes (or renews) a lease row: true when `holder` holds it until `at + ttlMs`. One conditional
 * UPDATE decides, so two instances never both hold it, on SQLite and PostgreSQL alike; a holder that
 * died loses it when it expires.
 */
export async function takeLease(
  db: Kysely<Database>,
  name: string,
  holder: string,
  at: Date,
  ttlMs: number,
): Promise<boolean> {
  const expires = new Date(at.getTime() + ttlMs).toISOString();
  await db
    .insertInto('scheduler_leases')
    .values({ name, holder, expires_at: at.toISOString() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const taken = await db
    .updateTable('scheduler_leases')
    .set({ holder, expires_at: expires })
    .where('name', '=', name)
    .where((eb) => eb.or([eb('holder', '=', holder), eb('expires_at', '<=', at.toISOString())]))
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) === 1;
}

/** Gives a lease up (on shutdown), so another instance takes over at once. */
export async function releaseLease(db: Kysely<Database>, name: string, holder: string): Promise<void> {
  await db.deleteFrom('scheduler_leases').where('name', '=', name).where('holder', '=', holder).execute();
}

/**
 * Escalates every due non-responder (at most `limit`) as of `at`, in one transaction: tells the
 * manager one level further up than last time (in-app notification and domain events), and sets the
 * next due time if there is a manager above that one. Each person's row is updated only if it is
 * still in the state that was read (same level and due time, still no answer), and escalations are
 * unique per person and level, so a second runner can never escalate anyone twice.
 */
export async function escalateDue(db: Kysely<Database>, at: Date, limit = 500): Promise<number> {
  const nowIso = at.toISOString();
  return db.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom('call_event_targets as t')
      .innerJoin('call_events as e', 'e.id', 't.event_id')
      .innerJoin('users as u', 'u.id', 't.user_id')
      .select([
        't.event_id',
        't.user_id',
        't.manager_id',
        't.escalation_level',
        't.next_escalation_at',
        'e.title',
        'e.escalation_delay_seconds',
        'u.display_name',
      ])
      .where('t.next_escalation_at', '<=', nowIso)
      .where('t.status', '=', 'no_answer')
      .where('e.status', '=', 'running')
      .orderBy('t.next_escalation_at')
      .limit(limit)
      .execute();
    const managerCache = new Map<string, string | null>();
    const managerOf = async (eventId: string, userId: string): Promise<string | null> => {
      const key = `${eventId}:${userId}`;
      if (!managerCache.has(key)) {
        const row = await trx
          .selectFrom('call_event_targets')
          .select('manager_id')
          .where('event_id', '=', eventId)
          .where('user_id', '=', userId)
          .executeTakeFirst();
        managerCache.set(key, row?.manager_id ?? null);
      }
      return managerCache.get(key)!;
    };

    let escalated = 0;
    for (const row of due) {
      const level = row.escalation_level + 1;
      // The manager `level` steps up the snapshot's chain, and whether anyone is above them.
      let notified: string | null = row.manager_id;
      for (let step = 1; step < level && notified; step++) notified = await managerOf(row.event_id, notified);
      const above = notified ? await managerOf(row.event_id, notified) : null;
      const next = above ? new Date(at.getTime() + row.escalation_delay_seconds * 1000).toISOString() : null;
      const claimed = await trx
        .updateTable('call_event_targets')
        .set(notified ? { escalation_level: level, next_escalation_at: next } : { next_escalation_at: null })
        .where('event_id', '=', row.event_id)
        .where('user_id', '=', row.user_id)
        .where('escalation_level', '=', row.escalation_level)
        .where('next_escalation_at', '=', row.next_escalation_at)
        .where('status', '=', 'no_answer')
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1 || !notified) continue;
      await trx
        .insertInto('call_escalations')
        .values({
          id: newId(),
          event_id: row.event_id,
          user_id: row.user_id,
          notified_user_id: notified,
          level,
          created_at: nowIso,
        })
        .execute();
      const minutes = Math.round((row.escalation_delay_seconds * level) / 60);
      await notifyCallTree(
        trx,
        [
          {
            userId: notified,
            kind: NotificationKind.callEscalation,
            title: `No answer from ${row.display_name}`,
            body: `${row.display_name} has not answered "${row.title}" for about ${minutes} minutes. Please reach them and answer on their behalf.`,
            data: {
              eventId: row.event_id,
              personId: row.user_id,
              level,
              personName: row.display_name,
              eventTitle: row.title,
              minutes,
            },
          },
        ],
        nowIso,
        null,
      );
      await recordEvent(trx, {
        room: `callevent:${row.event_id}`,
        type: CallTreeEventName.escalated,
        payload: {
          eventId: row.event_id,
          personId: row.user_id,
          notifiedUserId: notified,
          level,
          at: nowIso,
          // Who may receive it live: those who run the event and this chain (policies/calltree.ts).
          chain: await snapshotChain(trx, row.event_id, row.user_id),
        },
        actorId: null,
      });
      escalated += 1;
    }
    return escalated;
  });
}

/** What the escalation scheduler needs. */
export interface EscalationSchedulerOptions {
  db: Kysely<Database>;
  bus: EventBus;
  /** The clock; tests pass a controllable one. */
  now?: () => Date;
  /** This instance's name in the lease row. */
  holder?: string;
  /** How often to look for due escalations (default 5 s). */
  intervalMs?: number;
  /** How long the lease lasts without renewal (default 30 s). */
  leaseMs?: number;
  /** People escalated per transaction (default 500). */
  batchSize?: number;
  /** Where a failed run is reported (it is retried at the next interval). */
  onError?: (error: unknown) => void;
  /** Told how each run ended and how many people it escalated (the metrics count runs). */
  onRun?: (outcome: EscalationRunOutcome, escalated: number) => void;
}

/**
 * How a run of the escalation scheduler ended: it escalated people, found nobody due, left the work
 * to the instance holding the lease, or failed.
 */
export type EscalationRunOutcome = 'escalated' | 'idle' | 'skipped' | 'failed';

/**
 * Escalates non-responders in the background. Its state lives in the database (each person's due
 * time and level), so it survives restarts; a lease row makes exactly one server instance run it at
 * a time, and `escalateDue`'s conditional updates make sure nobody is escalated twice even then.
 */
export class EscalationScheduler {
  readonly holder: string;
  readonly #options: EscalationSchedulerOptions;
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<number> | null = null;

  constructor(options: EscalationSchedulerOptions) {
    this.#options = options;
    this.holder = options.holder ?? `instance-${randomUUID()}`;
  }

  /** One run: takes the lease, then escalates everyone due, batch by batch. Answers how many were escalated. */
  async tick(): Promise<number> {
    if (this.#running) return this.#running;
    this.#running = this.#run().finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  async #run(): Promise<number> {
    const { db, bus, onRun } = this.#options;
    const clock = this.#options.now ?? (() => new Date());
    const batch = this.#options.batchSize ?? 500;
    let total = 0;
    let leased = false;
    try {
      for (;;) {
        const at = clock();
        if (!(await takeLease(db, ESCALATION_LEASE, this.holder, at, this.#options.leaseMs ?? 30_000))) break;
        leased = true;
        const n = await escalateDue(db, at, batch);
        total += n;
        if (n > 0) bus.committed();
        if (n < batch) break;
      }
    } catch (error) {
      onRun?.('failed', total);
      throw error;
    }
    onRun?.(total > 0 ? 'escalated' : leased ? 'idle' : 'skipped', total);
    return total;
  }

  /** Runs `tick` every interval until stopped. */
  start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => {
      this.tick().catch((error: unknown) => this.#options.onError?.(error));
    }, this.#options.intervalMs ?? 5000);
    this.#timer.unref();
  }

  /** Stops, waits for a run in progress, and gives up the lease. */
  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#running?.catch(() => 0);
    await releaseLease(this.#options.db, ESCALATION_LEASE, this.holder).catch(() => {});
  }
}
