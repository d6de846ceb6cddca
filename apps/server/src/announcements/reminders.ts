import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { releaseLease, takeLease } from '../calltree/escalation.ts';
import { sendAutomaticReminder } from '../commands/announcementReminder.ts';
import type { Database } from '../db/index.ts';
import type { EventBus } from '../events/bus.ts';
import { PeriodicJob } from '../jobs/periodic.ts';

/** The `scheduler_leases` row that lets one instance at a time send the automatic reminders. */
export const ANNOUNCEMENT_REMINDER_LEASE = 'announcement-reminders';

/** What the reminder job needs. */
export interface AnnouncementReminderOptions {
  db: Kysely<Database>;
  bus: EventBus;
  /** The clock (tests drive it). */
  now?: () => Date;
  /** Time between runs (default a minute). */
  intervalMs?: number;
  /** This instance's name in the lease (default: a random one). */
  holder?: string;
  /** Requests reminded per transaction (default 20: each may notify thousands). */
  batchSize?: number;
  /** Told when a run failed; the next one tries again. */
  onError?(error: unknown): void;
}

/**
 * Sends each important post's automatic reminder once, `remindAfterMinutes` after it was marked, to
 * those who have not acknowledged (kind `announcement.reminder`). Every instance runs one, every
 * minute; a lease lets one instance at a time work, and each request is taken by a conditional update
 * (`sendAutomaticReminder`), so even two instances holding it at once (a lease that ran out mid-run)
 * remind once. `tick()` answers how many requests were reminded.
 */
export class AnnouncementReminderJob extends PeriodicJob<number> {
  readonly holder: string;
  readonly #options: AnnouncementReminderOptions;

  constructor(options: AnnouncementReminderOptions) {
    const everyMs = options.intervalMs ?? 60_000;
    super(() => ({ firstMs: Math.min(5000, everyMs), everyMs, onError: options.onError?.bind(options) }));
    this.#options = options;
    this.holder = options.holder ?? `instance-${randomUUID()}`;
  }

  protected async run(): Promise<number> {
    const { db, bus } = this.#options;
    const clock = this.#options.now ?? (() => new Date());
    const batch = this.#options.batchSize ?? 20;
    let reminded = 0;
    for (;;) {
      const at = clock();
      if (!(await takeLease(db, ANNOUNCEMENT_REMINDER_LEASE, this.holder, at, 2 * 60_000))) break;
      const due = await db
        .selectFrom('announcements')
        .select('post_id')
        .where('auto_reminded_at', 'is', null)
        .where('remind_at', '<=', at.toISOString())
        .orderBy('remind_at')
        .limit(batch)
        .execute();
      if (due.length === 0) break;
      for (const { post_id } of due) {
        const sent = await db.transaction().execute((trx) => sendAutomaticReminder(trx, post_id, at));
        if (sent !== null) reminded += 1;
      }
      bus.committed();
      if (due.length < batch) break;
    }
    return reminded;
  }

  /** Stops, waits for a run in progress, and gives up the lease. */
  override async stop(): Promise<void> {
    await super.stop();
    await releaseLease(this.#options.db, ANNOUNCEMENT_REMINDER_LEASE, this.holder).catch(() => {});
  }
}
