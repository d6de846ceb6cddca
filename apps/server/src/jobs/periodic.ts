/** When a periodic job runs, and where its failures go. */
export interface PeriodicTiming {
  /** Delay before the first run after `start`. */
  firstMs: number;
  /** Time between runs. */
  everyMs: number;
  /** Where a failed run is reported (the next interval tries again). */
  onError?: (error: unknown) => void;
}

/**
 * A job run on a timer in every instance (the directory sync, the clean-up of unposted uploads):
 * one run at a time (`tick` while running answers the run in progress), timers that never keep the
 * process alive, and a `stop` that waits for the run in progress.
 */
export abstract class PeriodicJob<T> {
  readonly #timing: () => PeriodicTiming;
  #timer: NodeJS.Timeout | null = null;
  #first: NodeJS.Timeout | null = null;
  #running: Promise<T> | null = null;

  constructor(timing: () => PeriodicTiming) {
    this.#timing = timing;
  }

  /** One run of the job. */
  protected abstract run(): Promise<T>;

  /** Runs the job now, or answers the run in progress. */
  tick(): Promise<T> {
    this.#running ??= this.run().finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  /** Runs after `firstMs` and then every `everyMs`, until stopped. */
  start(): void {
    if (this.#timer) return;
    const { firstMs, everyMs, onError } = this.#timing();
    const run = () => {
      this.tick().catch((error: unknown) => onError?.(error));
    };
    this.#first = setTimeout(run, firstMs);
    this.#first.unref();
    this.#timer = setInterval(run, everyMs);
    this.#timer.unref();
  }

  /** Stops the timers and waits for a run in progress. */
  async stop(): Promise<void> {
    if (this.#first) clearTimeout(this.#first);
    if (this.#timer) clearInterval(this.#timer);
    this.#first = null;
    this.#timer = null;
    await this.#running?.catch(() => undefined);
  }
}
