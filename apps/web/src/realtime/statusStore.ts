import { createStore, type Store } from '../stores/createStore.ts';

/**
 * The connection's state as the indicator shows it: `connecting` (first attempt), `connected`
 * (replay done, live), `reconnecting` (lost, retrying with backoff), `offline` (the browser says it
 * has no network), `stopped` (no session, or the server refused it for good).
 */
export type ConnectionStatus = 'connecting' | 'connected' | 'reconnecting' | 'offline' | 'stopped';

/** What the realtime client publishes to the UI. */
export interface RealtimeState {
  status: ConnectionStatus;
  /** The signed-in person's id, once the server said it (`ready`). */
  userId: string | null;
}

/** Creates the client's state store. */
export function createRealtimeStateStore(): Store<RealtimeState> {
  return createStore<RealtimeState>({ status: 'stopped', userId: null });
}
