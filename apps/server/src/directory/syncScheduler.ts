import { randomUUID } from 'node:crypto';
import { takeLease } from '../calltree/escalation.ts';
import type { DirectorySyncSummary } from '../commands/directoryPeopleSyncer.ts';
import type { AppContext } from '../context.ts';
import { PeriodicJob } from '../jobs/periodic.ts';
import { syncDirectoryPeople } from './index.ts';

/** The `scheduler_leases` row that lets one instance at a time sync the directory. */
export const DIRECTORY_SYNC_LEASE = 'directory-sync';

/** What the periodic directory sync needs. */
export interface DirectorySyncSchedulerOptions {
  ctx: AppContext;
  /** Time between two syncs (DIRECTORY_SYNC_INTERVAL_MINUTES). */
  intervalMs: number;
  /** This instance's name in the lease (default: a random one). */
  holder?: string;
  /** Told what each sync changed. */
  onSynced?(summary: DirectorySyncSummary): void;
  /** Told when a sync failed; the next interval tries again. */
  onError?(error: unknown): void;
  /** Told how each run ended: synced, left to the instance holding the lease, or failed (metrics). */
  onRun?(outcome: 'synced' | 'skipped' | 'failed'): void;
}

/**
 * Syncs the directory's people every interval (syncDirectoryPeople: people, admin roles, disabled
 * accounts and their sessions), so that a person disabled or removed in the directory loses access
 * within one interval even if no call tree is built. Every instance runs one; a lease as long as the
 * interval lets one instance sync per interval. The lease is kept on stop, so restarts keep the pace.
 */
export class DirectorySyncScheduler extends PeriodicJob<DirectorySyncSummary | null> {
  readonly holder: string;
  readonly #options: DirectorySyncSchedulerOptions;

  constructor(options: DirectorySyncSchedulerOptions) {
    // Soon after start, then every interval.
    super(() => ({ firstMs: 1000, everyMs: options.intervalMs, onError: options.onError?.bind(options) }));
    this.#options = options;
    this.holder = options.holder ?? `instance-${randomUUID()}`;
  }

  /** One run: syncs when this instance holds the lease. Answers the sync's summary, or null. */
  protected async run(): Promise<DirectorySyncSummary | null> {
    const { ctx, intervalMs } = this.#options;
    let summary: DirectorySyncSummary | null;
    try {
      if (!(await takeLease(ctx.db.kysely, DIRECTORY_SYNC_LEASE, this.holder, new Date(), intervalMs))) {
        this.#options.onRun?.('skipped');
        return null;
      }
      summary = await syncDirectoryPeople(ctx);
    } catch (error) {
      this.#options.onRun?.('failed');
      throw error;
    }
    this.#options.onRun?.(summary ? 'synced' : 'skipped');
    if (summary) this.#options.onSynced?.(summary);
    return summary;
  }
}
