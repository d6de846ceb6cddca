import type { CurrentTerms } from '@btalk/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { TERMS_GATE_KEY } from '../api/terms.ts';
import { useServices } from '../services.tsx';
import { useStore } from '../stores/createStore.ts';
import { applyEvent } from './cacheUpdates.ts';
import { type Realtime, RealtimeContext } from './context.ts';
import { RealtimeClient } from './RealtimeClient.ts';
import { readStaleQueriesAgain } from './staleQueries.ts';
import { createVolatileStore } from './volatileStore.ts';

/** `ws(s)://host/api/realtime` from the configuration's `apiBase` (absolute or relative to the page). */
export function realtimeUrl(apiBase: string, page: string): string {
  const url = new URL(`${apiBase.replace(/\/+$/, '')}/realtime`, page);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

/**
 * The tab's one realtime connection: started while a session exists, stopped at sign-out; events
 * update the query cache, refreshed tokens are handed over the open socket.
 */
export function RealtimeProvider({ children }: { children: ReactNode }) {
  const { config, session, api } = useServices();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const sealedToken = useStore(session, (s) => s.btalk_token);
  const [realtime] = useState<Realtime>(() => {
    const volatile = createVolatileStore();
    const client: RealtimeClient = new RealtimeClient({
      url: realtimeUrl(config.apiBase, window.location.href),
      apiKey: config.apiKey,
      getToken: () => session.accessToken(),
      refresh: (failed) => api.client.refresh(failed),
      onEvent: (event) => {
        const userId = client.state.getState().userId;
        if (userId) applyEvent(queryClient, event, { userId });
      },
      // Too far behind, or the first connection: what was loaded before it may have missed events.
      onResync: () => void queryClient.invalidateQueries(),
      // What was loaded before the first `ready` and does not reflect its position is read again.
      onReady: ({ first, seq }) => {
        if (first) readStaleQueriesAgain(queryClient, seq, api.client.answerSeq);
      },
      onVolatile: (message) => volatile.apply(message),
      // New terms end the stream at once. The administrator who just published them stays to read
      // the confirmation; their next request takes them to /terms like everyone else.
      onTermsRequired: () => {
        if (window.location.pathname !== '/admin/terms') void navigate('/terms', { replace: true });
      },
      // A session that cannot be refreshed just stops the stream: sign-out navigates by itself, and
      // the next API call sends anyone else to /login (a navigation here would race sign-out's own).
      network: window,
    });
    return { client, volatile };
  });

  const signedIn = sealedToken !== null;
  useEffect(() => {
    if (!signedIn) return;
    realtime.client.start();
    // Accepting the terms lets a connection refused for them start again.
    const unsubscribe = queryClient.getQueryCache().subscribe((event) => {
      if (event.type !== 'updated' || event.query.queryKey.join('/') !== TERMS_GATE_KEY.join('/')) return;
      const terms = event.query.state.data as CurrentTerms | undefined;
      if (terms?.acceptedAt) realtime.client.start();
    });
    return () => {
      unsubscribe();
      realtime.client.stop();
      realtime.volatile.reset();
    };
  }, [signedIn, realtime, queryClient]);

  useEffect(() => {
    // A refresh by the API client stored a new token: the socket carries on with it.
    if (sealedToken) void realtime.client.updateToken();
  }, [sealedToken, realtime]);

  return <RealtimeContext.Provider value={realtime}>{children}</RealtimeContext.Provider>;
}
