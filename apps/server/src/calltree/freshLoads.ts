/** The least time between the beginnings of two loads of one key (`FreshLoads`). */
export const FRESH_LOAD_GAP_MS = 250;

/** How long a key's last value is kept for the next load to start from once nobody reads it. */
export const FRESH_LOAD_KEEP_MS = 30_000;

/** A load of one key, given the last value a load of that key gave (if still kept) to start from. */
export type FreshLoad<V> = (previous: V | undefined) => Promise<V>;

/** The readers waiting for a load that has not begun yet. */
interface Waiting<V> {
  readers: Array<{ resolve: (value: V) => void; reject: (error: unknown) => void }>;
}

/**
 * Loads that readers of the same key share, each reader served by a load begun after it asked (so it
 * sees every change committed before its request), and loads of one key begun at most every `gapMs`.
 * A reader that comes while a load is already under way, or within `gapMs` of the last one's
 * beginning, waits for the next one, which every reader that comes meanwhile shares. The readers of
 * a shared load go on one per turn of the event loop, so that what each does next (presenting,
 * serialising and compressing a roll-up) lets other requests and sockets through in between.
 *
 * In the crisis minute every watcher's screen fetches its event's roll-up again after each change:
 * 50 watchers at a few fetches a second each loaded the event's 10,000 people 150 times a second,
 * and the server fell over (docs/benchmarks.md). With this, at most four loads a second per event,
 * however many watch.
 *
 * A load is handed the last value of its key (kept `keepMs` after the last load), so that it may
 * read only what changed since (calltree/eventStore.ts reads an event's answers since its last load).
 */
export class FreshLoads<V> {
  readonly #gapMs: number;
  readonly #keepMs: number;
  /**
   * Per key: when its last load began, the load that will serve the readers who come now, and the
   * value of the last load that finished (with when it began).
   */
  readonly #keys = new Map<string, Entry<V>>();

  constructor(gapMs = FRESH_LOAD_GAP_MS, keepMs = gapMs) {
    this.#gapMs = gapMs;
    this.#keepMs = Math.max(gapMs, keepMs);
  }

  get(key: string, load: FreshLoad<V>): Promise<V> {
    const now = Date.now();
    let entry = this.#keys.get(key);
    if (!entry) {
      entry = { lastBegun: Number.NEGATIVE_INFINITY, next: null, last: null };
      this.#keys.set(key, entry);
    }
    const state = entry;
    const waiting = state.next;
    if (!waiting) {
      const wait = state.lastBegun + this.#gapMs - now;
      if (wait <= 0) return this.#begin(key, state, load);
      const next: Waiting<V> = { readers: [] };
      state.next = next;
      setTimeout(() => {
        state.next = null;
        this.#begin(key, state, load).then(
          (value) => releaseInTurns(next.readers, (r) => r.resolve(value)),
          (error: unknown) => releaseInTurns(next.readers, (r) => r.reject(error)),
        );
      }, wait);
    }
    return new Promise<V>((resolve, reject) => {
      state.next!.readers.push({ resolve, reject });
    });
  }

  #begin(key: string, entry: Entry<V>, load: FreshLoad<V>): Promise<V> {
    const begun = Date.now();
    entry.lastBegun = begun;
    const loading = load(entry.last?.value);
    // Forget the key once nobody waits and its value is no longer kept, so the map holds only
    // live events.
    const forget = () => {
      setTimeout(() => {
        const idle = !entry.next && Date.now() - entry.lastBegun >= this.#keepMs;
        if (idle && this.#keys.get(key) === entry) this.#keys.delete(key);
      }, this.#keepMs).unref?.();
    };
    loading.then((value) => {
      // Loads may overlap (one slower than the gap): the value of the latest begun is kept.
      if (!entry.last || entry.last.begun <= begun) entry.last = { value, begun };
      forget();
    }, forget);
    return loading;
  }
}

interface Entry<V> {
  lastBegun: number;
  next: Waiting<V> | null;
  last: { value: V; begun: number } | null;
}

/** Calls `release` for each item, one per turn of the event loop (I/O is polled in between). */
function releaseInTurns<T>(items: T[], release: (item: T) => void): void {
  let i = 0;
  const next = () => {
    if (i >= items.length) return;
    release(items[i++]!);
    setImmediate(next);
  };
  next();
}
