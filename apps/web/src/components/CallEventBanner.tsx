import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { callTreeKeys } from '../api/queryKeys.ts';
import { useAnswerQueue } from '../offline/index.ts';
import { useServices } from '../services.tsx';
import { useStore } from '../stores/createStore.ts';

// The banners' code and texts load with the first event, keeping them out of the first screen.
const EventBanners = lazy(() => import('./callEvent/EventBanners.tsx'));

/** How often the banner asks for new events anyway; `notification.created` and `callevent.*` refresh it at once. */
const PENDING_REFETCH_MS = 120_000;

/**
 * The call-tree event banner of every screen: each running event waiting for the person's answer,
 * answered with one tap (an optional note and location), changeable; an answer made offline shows as
 * queued until it is sent.
 */
export function CallEventBanner() {
  const { api, session } = useServices();
  const signedIn = useStore(session, (s) => s.btalk_token !== null);
  const queued = useStore(useAnswerQueue().store, (s) => s.items.length > 0);
  const pending = useQuery({
    queryKey: callTreeKeys.pending(),
    queryFn: () => api.calltree.pending(),
    enabled: signedIn,
    refetchInterval: PENDING_REFETCH_MS,
    refetchOnWindowFocus: true,
  });
  // Once shown, the banners stay mounted: an answered event leaves the pending list but keeps its
  // confirmation (and the way to change the answer) until the person hides it.
  const [shown, setShown] = useState(false);
  const waiting = (pending.data?.length ?? 0) > 0 || queued;
  useEffect(() => {
    if (waiting) setShown(true);
  }, [waiting]);
  if (!signedIn || !(shown || waiting)) return null;
  return (
    <Suspense fallback={null}>
      <EventBanners pending={pending.data ?? []} />
    </Suspense>
  );
}
