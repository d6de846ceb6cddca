import type { Kysely } from 'kysely';
import { unpostedAttachmentRemover } from '../commands/unpostedAttachmentRemover.ts';
import type { Database } from '../db/index.ts';
import { PeriodicJob } from '../jobs/periodic.ts';
import type { FileStorage } from './storage.ts';

/** What the clean-up of unposted uploads needs. */
export interface UploadCleanerOptions {
  db: Kysely<Database>;
  files: FileStorage;
  /** Uploads not in a post this many hours after their upload are removed (UPLOAD_UNPOSTED_TTL_HOURS). */
  ttlHours: number;
  /** The clock; tests pass a controllable one. */
  now?: () => Date;
  /** How often to look (default 10 minutes; the first look is a minute after start). */
  intervalMs?: number;
  /** Uploads removed per transaction (default 200). */
  batchSize?: number;
  /** Told how many uploads a run removed, when it removed any (for the log). */
  onRemoved?: (count: number) => void;
  /** Where a failed run is reported (it is retried at the next interval). */
  onError?: (error: unknown) => void;
}

/**
 * Removes uploads that were never taken into a post (rows and files), so abandoned drafts do not
 * keep their uploader's quota full nor fill the disk. Every instance may run it: each row is deleted
 * by one conditional delete, so two instances never remove one twice, and a removed file's row is
 * gone first, so nothing points at a missing file. A crash between the commit and the file delete
 * leaves a file without a row, which nothing can reach.
 */
export class UploadCleaner extends PeriodicJob<number> {
  readonly #options: UploadCleanerOptions;

  constructor(options: UploadCleanerOptions) {
    super(() => {
      const every = options.intervalMs ?? 10 * 60_000;
      return { firstMs: Math.min(every, 60_000), everyMs: every, onError: options.onError };
    });
    this.#options = options;
  }

  /** One run: removes every upload older than the TTL that no post holds. Answers how many. */
  protected async run(): Promise<number> {
    const { db, files, ttlHours } = this.#options;
    const clock = this.#options.now ?? (() => new Date());
    const batch = this.#options.batchSize ?? 200;
    const before = new Date(clock().getTime() - ttlHours * 3_600_000).toISOString();
    let total = 0;
    for (;;) {
      const keys = await db.transaction().execute((trx) => unpostedAttachmentRemover(trx, before, batch));
      // After the commit: a rolled-back delete must not lose a file its row still names.
      await Promise.all(keys.map((key) => files.delete(key)));
      total += keys.length;
      if (keys.length < batch) break;
    }
    if (total > 0) this.#options.onRemoved?.(total);
    return total;
  }
}
