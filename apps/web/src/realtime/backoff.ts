/** Reconnect delays: exponential growth, capped, with full jitter. */
export interface BackoffOptions {
  /** Delay ceiling of the first retry. */
  baseMs: number;
  /** The ceiling never grows past this. */
  maxMs: number;
}

/** Default reconnect timing: 0.5 s doubling up to 30 s. */
export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 500, maxMs: 30_000 };

/**
 * The delay before reconnect attempt `attempt` (0 for the first): uniformly random between 0 and
 * `min(maxMs, baseMs * 2^attempt)` ("full jitter"), so that thousands of tabs cut off by one server
 * restart do not come back in lockstep.
 */
export function backoffDelay(
  attempt: number,
  options: BackoffOptions = DEFAULT_BACKOFF,
  random = Math.random,
): number {
  const ceiling = Math.min(options.maxMs, options.baseMs * 2 ** Math.min(attempt, 30));
  return Math.floor(random() * ceiling);
}
