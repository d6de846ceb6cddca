import type { QueryClient, QueryKey } from '@tanstack/react-query';

/** The least time between two refreshes of one query key after a burst of changes. */
export const REFRESH_GAP_MS = 250;

interface Pending {
  /** A change arrived while the last refresh was on its way. */
  again: boolean;
}

const pendingByClient = new WeakMap<QueryClient, Map<string, Pending>>();

/**
 * Refreshes the queries under `queryKey` because something in them changed, at once for the first
 * change, then at most once per finished fetch and `REFRESH_GAP_MS` while changes keep coming (the
 * last change is always fetched). In the crisis minute a roll-up's event gets hundreds of answers a
 * second: invalidating on each one cancelled the roll-up's fetch before it could finish, so the
 * screen stood still exactly when it mattered.
 */
export function refreshCoalesced(qc: QueryClient, queryKey: QueryKey): void {
  let pending = pendingByClient.get(qc);
  if (!pending) {
    pending = new Map();
    pendingByClient.set(qc, pending);
  }
  const key = JSON.stringify(queryKey);
  const running = pending.get(key);
  if (running) {
    running.again = true;
    return;
  }
  const state: Pending = { again: false };
  pending.set(key, state);
  const all = pending;
  void (async () => {
    try {
      do {
        state.again = false;
        // A fetch already under way finishes (it is not cancelled); it is waited for.
        await qc.invalidateQueries({ queryKey }, { cancelRefetch: false }).catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, REFRESH_GAP_MS));
      } while (state.again);
    } finally {
      all.delete(key);
    }
  })();
}
