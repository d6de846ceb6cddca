import { createContext, useContext } from 'react';
import type { RealtimeClient } from './RealtimeClient.ts';
import type { VolatileStore } from './volatileStore.ts';

/** The tab's realtime connection and what it heard of typing and presence. */
export interface Realtime {
  client: RealtimeClient;
  volatile: VolatileStore;
}

/** Set by `RealtimeProvider`; null outside it (tests of single components). */
export const RealtimeContext = createContext<Realtime | null>(null);

/** The tab's realtime connection, or null when rendered outside the provider. */
export function useRealtime(): Realtime | null {
  return useContext(RealtimeContext);
}
