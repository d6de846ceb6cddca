import type { QueryClient } from '@tanstack/react-query';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';

/**
 * The performance mark set when work held back until after the first screen starts; the first-load
 * measurement (e2e/firstLoad.ts) counts scripts requested after it apart from the first screen.
 */
export const AFTER_FIRST_SCREEN_MARK = 'btalk:after-first-screen';

/** How long nothing may have loaded (no script, no API answer) before the first screen counts as done. */
const QUIET_MS = 500;

let waiting: Promise<void> | null = null;

/**
 * Resolves once the first screen is done: the page has loaded, no query is fetching, no resource
 * has finished loading for half a second (a lazy screen's chunks, its data), and the browser then
 * has an idle moment. For what can come a moment later without anyone missing it: the app bar's
 * photo, whose Graph client is 22 KB of code (issue 14).
 */
export function afterFirstScreen(queryClient: QueryClient): Promise<void> {
  waiting ??= new Promise<void>((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const observer =
      typeof PerformanceObserver === 'function' ? new PerformanceObserver(() => quietAgain()) : null;
    let unsubscribe = () => {};
    const finish = () => {
      observer?.disconnect();
      unsubscribe();
      performance.mark(AFTER_FIRST_SCREEN_MARK);
      resolve();
    };
    const check = () => {
      // A query that is still fetching will change the cache when it ends, which starts the wait again.
      if (queryClient.isFetching() > 0) return;
      if (typeof requestIdleCallback === 'function') requestIdleCallback(finish, { timeout: 2_000 });
      else finish();
    };
    function quietAgain() {
      clearTimeout(timer);
      timer = setTimeout(check, QUIET_MS);
    }
    const start = () => {
      observer?.observe({ type: 'resource' });
      unsubscribe = queryClient.getQueryCache().subscribe(quietAgain);
      quietAgain();
    };
    if (document.readyState === 'complete') start();
    else window.addEventListener('load', start, { once: true });
  });
  return waiting;
}

/** Whether the first screen is done (`afterFirstScreen`); false until then. */
export function useAfterFirstScreen(): boolean {
  const queryClient = useQueryClient();
  const [done, setDone] = useState(false);
  useEffect(() => {
    let mounted = true;
    void afterFirstScreen(queryClient).then(() => mounted && setDone(true));
    return () => {
      mounted = false;
    };
  }, [queryClient]);
  return done;
}
