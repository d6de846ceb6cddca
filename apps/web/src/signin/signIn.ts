import type { AadResponse, CodeRequest, SignInResponse } from '@btalk/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { isErrorEnvelope } from '../api/errors.ts';
import { ME_QUERY_KEY } from '../api/me.ts';
import type { Services } from '../services.tsx';

/** Window name of the sign-in popup; the callback page knows it runs in the popup by its opener. */
export const POPUP_NAME = 'btalk-signin';
/** Size of the sign-in popup, about the directory's own sign-in page. */
export const POPUP_FEATURES = 'popup,width=520,height=680';
/** `postMessage` type the popup's callback page sends its opener once the session is stored. */
export const SIGNED_IN_MESSAGE = 'btalk:signed-in';

/** The message the callback page in the popup sends to the window that opened it. */
export interface SignedInMessage {
  type: typeof SIGNED_IN_MESSAGE;
  /** The state of the sign-in attempt it completed. */
  state: string;
}

/** The `/aad/callback` address of this app: the redirect URI the server expects exactly. */
export function callbackAddress(): string {
  return `${window.location.origin}/aad/callback`;
}

/** What the directory put on `/aad/callback`: a code to exchange, or the reason sign-in failed. */
export type CallbackParams =
  | { kind: 'code'; request: CodeRequest }
  | { kind: 'error'; error: string; description: string | null }
  | { kind: 'missing' };

/** Reads the callback's query string (`code`, `state`, `iss`, or `error` and `error_description`). */
export function readCallback(search: string): CallbackParams {
  const params = new URLSearchParams(search);
  const error = params.get('error');
  if (error) return { kind: 'error', error, description: params.get('error_description') };
  const code = params.get('code');
  const state = params.get('state');
  if (!code || !state) return { kind: 'missing' };
  // The issuer (RFC 9207) goes back to the server, which checks it against the directory's.
  const iss = params.get('iss');
  return { kind: 'code', request: { code, state, ...(iss ? { iss } : {}) } };
}

/**
 * First half of signing in (SPEC.md section 4): forget all three tokens (and whatever was cached for
 * the previous person), wait for the directory token, and ask the server for the directory's
 * sign-in URL. After an explicit sign-out (the session store remembers it) the directory is asked to
 * let the person choose the account, so another person can sign in. Answers undefined when that
 * call fails (only logged, as SPEC.md section 7 says).
 */
export async function startSignIn(
  { session, api, axiosCache }: Services,
  queryClient: QueryClient,
): Promise<AadResponse | undefined> {
  const selectAccount = session.getState().signed_out;
  session.clearTokens();
  queryClient.clear();
  // The Graph cache keys answers by address, not by token: another person's photo must not show.
  await axiosCache.storage.clear();
  session.setWaitingForAadToken(true);
  try {
    return await api.auth.signInUrl(callbackAddress(), selectAccount);
  } catch (error) {
    console.error('BTalk: GET /api/auth/aad failed', error);
    return undefined;
  }
}

/**
 * The field the server's 400 names when this browser did not start the sign-in it completes (it
 * lacks the sign-in cookie the server gave the browser that did): SIGN_IN_BROWSER_FIELD of the
 * contracts, written out to keep zod out of the bundle (AadCallback.test.tsx compares the two).
 */
export const SIGN_IN_BROWSER_FIELD = 'headers.cookie';

/**
 * How completing a sign-in ended: the session, or why not. `otherBrowser`: the sign-in was started
 * in another browser (a link someone sent, or cookies cleared or blocked meanwhile), so it must be
 * started again from this one; `failed`: anything else (expired, used, the directory refused).
 */
export type CompletedSignIn = { answer: SignInResponse } | { failure: 'otherBrowser' | 'failed' };

// A code can be exchanged once: a second render (React's strict mode, a double mount) shares the first.
const exchanges = new Map<string, Promise<CompletedSignIn>>();

/**
 * Second half: trade the callback's code for a session, set the directory token and clear the
 * waiting flag, then store the product tokens sealed. A failed exchange is logged and answered as
 * its kind.
 */
export function completeSignIn(
  { session, api }: Services,
  queryClient: QueryClient,
  request: CodeRequest,
): Promise<CompletedSignIn> {
  const running = exchanges.get(request.state);
  if (running) return running;
  const exchange = (async (): Promise<CompletedSignIn> => {
    let answer: SignInResponse;
    try {
      answer = await api.auth.exchangeCode(request);
    } catch (error) {
      console.error('BTalk: POST /api/auth/code failed', error);
      const otherBrowser =
        isErrorEnvelope(error) && error.details?.some((d) => d.field === SIGN_IN_BROWSER_FIELD);
      return { failure: otherBrowser ? 'otherBrowser' : 'failed' };
    }
    await session.setTokens({ aadToken: answer.aadAccessToken });
    session.setWaitingForAadToken(false);
    await session.setTokens({ accessToken: answer.accessToken, refreshToken: answer.refreshToken });
    queryClient.setQueryData(ME_QUERY_KEY, answer.user);
    return { answer };
  })();
  exchanges.set(request.state, exchange);
  return exchange;
}

/** Whether this page is the sign-in popup of a BTalk window on the same origin. */
export function openerWaitingForSignIn(): Window | null {
  const opener = window.opener as Window | null;
  if (!opener || opener === window) return null;
  try {
    // Reading another origin's location throws: then this is not our popup.
    return opener.location.origin === window.location.origin ? opener : null;
  } catch {
    return null;
  }
}
