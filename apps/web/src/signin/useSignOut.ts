import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useServices } from '../services.tsx';

/** Where sign-out leaves people: /login, saying they are signed out, with a "Sign in" button. */
export const SIGNED_OUT_STATE = { signedOut: true } as const;

/**
 * Signing out: end the session on the server (`POST /api/auth/logout`), show the signed-out page,
 * then forget the session here (tokens, cached server data, cached Graph answers). The page does not sign in
 * again by itself: the directory would sign the same person straight back in.
 */
export function useSignOut(): () => Promise<void> {
  const { api, session, axiosCache } = useServices();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(async () => {
    try {
      await api.auth.signOut();
    } catch (error) {
      // The session is forgotten here either way; the server ends it when its tokens expire.
      console.warn('BTalk: POST /api/auth/logout failed', error);
    }
    // To /login first, rendered at once (not in a transition): forgetting the tokens while a gated
    // screen is still on show would send it to /login without this state, to sign in again.
    await navigate('/login', { replace: true, state: SIGNED_OUT_STATE, flushSync: true });
    // Remembered (persisted), so /login waits for "Sign in" after a reload too.
    session.signOut();
    queryClient.clear();
    await axiosCache.storage.clear();
  }, [api, session, axiosCache, queryClient, navigate]);
}
