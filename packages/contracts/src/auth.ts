import { z } from 'zod';
import { Me } from './users.ts';

/** `GET /api/auth/aad` query: which callback address the browser will come back to. */
export const AadQuery = z.object({
  /** The web app's `/aad/callback` address; must equal the server's configured one exactly. */
  redirectUri: z.string().url().optional(),
  /**
   * `select_account` after a sign-out: the directory asks who signs in (another person may) instead of
   * signing the person it still knows straight back in. Left out, the directory decides.
   */
  prompt: z.enum(['select_account']).optional(),
});
export type AadQuery = z.infer<typeof AadQuery>;

/** `GET /api/auth/aad` answer: where to send the browser to sign in. */
export const AadResponse = z.object({
  /** The directory's authorization URL, with state, nonce and PKCE challenge; open it in a popup or the page. */
  url: z.string().url(),
  /** The state of this sign-in attempt; the callback must bring the same one back. */
  state: z.string(),
  /** The callback address the directory will redirect to. */
  redirectUri: z.string().url(),
  /** Whether this server's web app signs in with a popup or a full-page redirect. */
  signInMode: z.enum(['redirect', 'popup']),
  /** When the sign-in attempt expires (ISO-8601); after that, ask for a new URL. */
  expiresAt: z.string(),
});
export type AadResponse = z.infer<typeof AadResponse>;

/**
 * `POST /api/auth/code` request: the query parameters the directory put on `/aad/callback`. Only the
 * browser that called `GET /api/auth/aad` for this state may send it: it carries the sign-in cookie
 * that call set (otherwise 400 naming `SIGN_IN_BROWSER_FIELD`).
 */
export const CodeRequest = z.object({
  /** The authorization code. */
  code: z.string().min(1).max(4096),
  /** The state from the callback; must match a sign-in attempt made by `GET /api/auth/aad`. */
  state: z.string().min(1).max(512),
  /** The issuer identifier from the callback (RFC 9207), when the directory sends one. */
  iss: z.string().url().optional(),
});
export type CodeRequest = z.infer<typeof CodeRequest>;

/**
 * The field a 400 from `POST /api/auth/code` names when the browser posting the callback is not the
 * one that started the sign-in (it lacks that browser's sign-in cookie): start again from this one.
 */
export const SIGN_IN_BROWSER_FIELD = 'headers.cookie';

/** `POST /api/auth/team` request: the Teams tab's single sign-on token. */
export const TeamRequest = z.object({
  /** The token Teams' `authentication.getAuthToken()` gave the tab: a JWT for BTalk's API. */
  token: z.string().min(1).max(16384),
});
export type TeamRequest = z.infer<typeof TeamRequest>;

/** Answer of `POST /api/auth/code` and `POST /api/auth/team`: a new session. */
export const SignInResponse = z.object({
  /** The product access token (short-lived JWT), sent as `Authorization: Bearer`. */
  accessToken: z.string(),
  /** The refresh token (opaque); trade it at `POST /api/auth/refresh`. Single use: each refresh rotates it. */
  refreshToken: z.string(),
  /** The directory access token for Graph, for the cached Graph client. */
  aadAccessToken: z.string(),
  /** Seconds until the access token expires. */
  expiresIn: z.number().int(),
  /** The signed-in person, with what they may do. */
  user: Me,
});
export type SignInResponse = z.infer<typeof SignInResponse>;

/** `POST /api/auth/refresh` request (SPEC.md section 3). */
export const RefreshRequest = z.object({
  /** The refresh token received at sign-in or from the previous refresh. */
  refreshToken: z.string().min(1),
  /** The web app's `/aad/callback` address. */
  redirectUri: z.string().url(),
});
export type RefreshRequest = z.infer<typeof RefreshRequest>;

/**
 * `POST /api/auth/refresh` answer data. The refresh token is rotated on every use. For a few seconds
 * after a rotation the previous refresh token still answers, with this same pair (two tabs
 * refreshing at once); after that, presenting it again ends the whole session.
 */
export const RefreshResponse = z.object({
  /** The new product access token. */
  accessToken: z.string(),
  /** The directory access token, for the cached Graph client. */
  aadAccessToken: z.string(),
  /** The rotated refresh token: the one sent is no longer valid. */
  refreshToken: z.string().optional(),
});
export type RefreshResponse = z.infer<typeof RefreshResponse>;

/** `POST /api/auth/logout` answer: the session (its whole refresh-token family) has ended. */
export const LogoutResponse = z.object({
  /** Always true. */
  signedOut: z.literal(true),
});
export type LogoutResponse = z.infer<typeof LogoutResponse>;
