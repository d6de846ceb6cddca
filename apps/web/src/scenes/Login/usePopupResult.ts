import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import { useNavigate } from 'react-router';
import { ME_QUERY_KEY } from '../../api/me.ts';
import { useServices } from '../../services.tsx';
import { SIGNED_IN_MESSAGE, type SignedInMessage } from '../../signin/signIn.ts';

const CLOSED_POLL_MS = 500;

/**
 * Waits for the sign-in popup: its callback page stores the session (same origin, same storage and
 * key) and then posts `SIGNED_IN_MESSAGE` here. This window then reads the session, clears the
 * waiting flag and returns to the last page. `onAbandoned` runs when the popup closes without it.
 */
export function usePopupResult(onAbandoned: () => void) {
  const { session } = useServices();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const closedCheck = useRef<number | null>(null);
  // Kept after the popup closes: its message may arrive just after the closed check noticed.
  const expectedState = useRef<string | null>(null);
  const abandoned = useRef(onAbandoned);
  abandoned.current = onAbandoned;

  const stop = useMemo(
    () => () => {
      if (closedCheck.current !== null) window.clearInterval(closedCheck.current);
      closedCheck.current = null;
    },
    [],
  );

  useEffect(() => {
    const onMessage = (event: MessageEvent<SignedInMessage>) => {
      if (event.origin !== window.location.origin || event.data?.type !== SIGNED_IN_MESSAGE) return;
      if (!expectedState.current || event.data.state !== expectedState.current) return;
      expectedState.current = null;
      stop();
      session.reload();
      session.setWaitingForAadToken(false);
      void queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY });
      void navigate(session.getState().last_page, { replace: true });
    };
    window.addEventListener('message', onMessage);
    return () => {
      window.removeEventListener('message', onMessage);
      stop();
    };
  }, [session, queryClient, navigate, stop]);

  return useMemo(
    () => ({
      /** Follows `popup`, which signs in for the attempt `state`. */
      watch(popup: Window, state: string) {
        stop();
        closedCheck.current = window.setInterval(() => {
          if (!popup.closed) return;
          stop();
          abandoned.current();
        }, CLOSED_POLL_MS);
        expectedState.current = state;
      },
    }),
    [stop],
  );
}
