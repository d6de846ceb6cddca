/** The least time between the beginnings of two loads of one key (`FreshLoads`). */
export const FRESH_LOAD_GAP_MS = 250;

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
 */
export class FreshLoads<V> {
  readonly #gapMs: number;
  /** Per key: when its last load began, and the load that will serve the readers who come now. */
  readonly #keys = new Map<string, { lastBegun: number; next: Waiting<V> | null }>();

  constructor(gapMs = FRESH_LOAD_GAP_MS) {
    this.#gapMs = gapMs;
  }

  get(key: string, load: () => Promise<V>): Promise<V> {
    const now = Date.now();
    let entry = this.#keys.get(key);
    if (!entry) {
      entry = { lastBegun: Number.NEGATIVE_INFINITY, next: null };
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

  #begin(
    key: string,
    entry: { lastBegun: number; next: Waiting<V> | null },
    load: () => Promise<V>,
  ): Promise<V> {
    entry.lastBegun = Date.now();
    const loading = load();
    // Forget the key once nobody waits and its gap has passed, so the map holds only live events.
    const forget = () => {
      setTimeout(() => {
        const idle = !entry.next && Date.now() - entry.lastBegun >= this.#gapMs;
        if (idle && this.#keys.get(key) === entry) this.#keys.delete(key);
      }, this.#gapMs).unref?.();
    };
    loading.then(forget, forget);
    return loading;
  }
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
