import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REFRESH_GAP_MS, refreshCoalesced } from './coalescedRefresh.ts';

describe('refreshCoalesced', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A watched query whose fetches finish when the test says so. */
  function watchedQuery() {
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const fetches: Array<{ finish: () => void; signal: AbortSignal }> = [];
    const observer = new QueryObserver(qc, {
      queryKey: ['calltree', 'event', 'e1'],
      queryFn: ({ signal }) =>
        new Promise<number>((resolve) => {
          fetches.push({ finish: () => resolve(fetches.length), signal });
        }),
    });
    const unsubscribe = observer.subscribe(() => undefined);
    return { qc, fetches, unsubscribe };
  }

  it('fetches at once, lets a fetch under way finish, and fetches once more after a burst', async () => {
    const { qc, fetches, unsubscribe } = watchedQuery();
    // The observer's own first fetch.
    await vi.advanceTimersByTimeAsync(0);
    fetches[0]!.finish();
    await vi.advanceTimersByTimeAsync(0);

    refreshCoalesced(qc, ['calltree', 'event', 'e1']);
    await vi.advanceTimersByTimeAsync(0);
    expect(fetches).toHaveLength(2);
    // A burst while that fetch is on its way: nothing is cancelled, nothing more is asked yet.
    for (let i = 0; i < 50; i++) refreshCoalesced(qc, ['calltree', 'event', 'e1']);
    await vi.advanceTimersByTimeAsync(REFRESH_GAP_MS * 4);
    expect(fetches).toHaveLength(2);
    expect(fetches[1]!.signal.aborted).toBe(false);

    fetches[1]!.finish();
    await vi.advanceTimersByTimeAsync(REFRESH_GAP_MS);
    // The burst's changes are fetched, once.
    expect(fetches).toHaveLength(3);
    fetches[2]!.finish();
    await vi.advanceTimersByTimeAsync(REFRESH_GAP_MS * 4);
    expect(fetches).toHaveLength(3);

    // Quiet again: the next change is fetched at once.
    refreshCoalesced(qc, ['calltree', 'event', 'e1']);
    await vi.advanceTimersByTimeAsync(0);
    expect(fetches).toHaveLength(4);
    fetches[3]!.finish();
    await vi.advanceTimersByTimeAsync(REFRESH_GAP_MS);
    unsubscribe();
    qc.clear();
  });

  it('keeps keys and query clients apart', async () => {
    const a = watchedQuery();
    const b = watchedQuery();
    await vi.advanceTimersByTimeAsync(0);
    a.fetches[0]!.finish();
    b.fetches[0]!.finish();
    await vi.advanceTimersByTimeAsync(0);
    refreshCoalesced(a.qc, ['calltree', 'event', 'e1']);
    refreshCoalesced(a.qc, ['calltree', 'events']);
    refreshCoalesced(b.qc, ['calltree', 'event', 'e1']);
    await vi.advanceTimersByTimeAsync(0);
    // One refresh each: another key of the same client does not hold it back.
    expect([a.fetches.length, b.fetches.length]).toEqual([2, 2]);
    for (const q of [a, b]) {
      for (const f of q.fetches) f.finish();
      q.unsubscribe();
      q.qc.clear();
    }
    await vi.advanceTimersByTimeAsync(REFRESH_GAP_MS);
  });
});
