import {
  AadQuery,
  AadResponse,
  CodeRequest,
  LogoutResponse,
  okEnvelope,
  RefreshRequest,
  RefreshResponse,
  SIGN_IN_BROWSER_FIELD,
  SignInResponse,
  TeamRequest,
} from '@btalk/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as oidc from 'openid-client';
import { authenticate } from '../../auth/authenticate.ts';
import { ConsentRequiredError } from '../../auth/directoryClient.ts';
import { hashToken } from '../../auth/seal.ts';
import { refreshSession, startSession } from '../../auth/sessions.ts';
import {
  newSignInBrowserValue,
  readSignInCookie,
  signInCookie,
  signInSetCookie,
} from '../../auth/signInBrowser.ts';
import { signOutRecorder } from '../../commands/sessionCommands.ts';
import { signInAttemptRecorder, signInAttemptTaker } from '../../commands/signInAttempts.ts';
import { transact } from '../../commands/transact.ts';
import type { AppContext } from '../../context.ts';
import { ok } from '../../http/envelope.ts';
import { AppError, invalid } from '../../http/errors.ts';
import { perAddress } from '../../http/rateLimits.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route works for people who have not accepted the current terms of use (read by authenticate). */
    termsExempt?: boolean;
  }
}

/** How long a sign-in attempt (state, nonce, PKCE verifier) may wait for its callback. */
const ATTEMPT_TTL_MS = 10 * 60_000;

// The callback was not posted by the browser that started the sign-in.
const otherBrowser = (problem: string) =>
  invalid(
    SIGN_IN_BROWSER_FIELD,
    `${problem}: this sign-in was started in another browser (or this browser's cookies were cleared or blocked). Start signing in again from this browser with GET /api/auth/aad.`,
  );

/**
 * `/api/auth/*`: sign-in with the directory (`aad`, `code`), Teams single sign-on (`team`), session
 * refresh with rotating refresh tokens (`refresh`) and sign-out (`logout`). Every route is rate
 * limited per client address.
 */
export function authRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { config } = ctx;
  const settings = config.directory;
  // Per address and per endpoint; shared by every instance through Redis (http/rateLimits.ts).
  const limited = { rateLimit: perAddress(config.authRateLimitPerMinute) };
  const cookie = signInCookie(config.publicUrl);
  const checkRedirectUri = (field: string, sent: string | undefined) => {
    if (sent !== undefined && sent !== settings.redirectUri) {
      throw invalid(field, `must be exactly ${settings.redirectUri}, this server's /aad/callback address`);
    }
  };

  return async (app) => {
    app.get(
      '/auth/aad',
      {
        config: limited,
        schema: {
          summary: "The directory's sign-in URL (state, nonce and PKCE) for a popup or a redirect",
          querystring: AadQuery,
          response: { 200: okEnvelope(AadResponse) },
        },
      },
      async (request, reply) => {
        checkRedirectUri('query.redirectUri', request.query.redirectUri);
        // One value per browser, kept while it has one: two tabs signing in at once both complete.
        const browser = readSignInCookie(request.headers.cookie, cookie) ?? newSignInBrowserValue();
        const attempt = {
          state: oidc.randomState(),
          nonce: oidc.randomNonce(),
          codeVerifier: oidc.randomPKCECodeVerifier(),
          redirectUri: settings.redirectUri,
          browserHash: hashToken(browser),
          expiresAt: new Date(Date.now() + ATTEMPT_TTL_MS).toISOString(),
        };
        const url = await ctx.directory.authorizationUrl(attempt, request.query.prompt);
        await transact(ctx, (trx) => signInAttemptRecorder(trx, attempt));
        // Sent again each time, so the cookie outlives the newest attempt it is bound to.
        reply.header('set-cookie', signInSetCookie(browser, cookie, ATTEMPT_TTL_MS / 1000));
        reply.header('cache-control', 'no-store');
        return ok({
          url: url.href,
          state: attempt.state,
          redirectUri: attempt.redirectUri,
          signInMode: settings.signInMode,
          expiresAt: attempt.expiresAt,
        });
      },
    );

    app.post(
      '/auth/code',
      {
        config: limited,
        schema: {
          summary: 'Exchange the code from /aad/callback for a session',
          body: CodeRequest,
          response: { 200: okEnvelope(SignInResponse) },
        },
      },
      async (request) => {
        const { code, state, iss } = request.body;
        // Before anything reaches the directory: only the browser that started the sign-in may
        // complete it, or a callback link made elsewhere would sign this browser in as its maker.
        const browser = readSignInCookie(request.headers.cookie, cookie);
        if (!browser) throw otherBrowser(`has no ${cookie.name} cookie`);
        const found = await transact(ctx, (trx) => signInAttemptTaker(trx, state, hashToken(browser)));
        if ('refused' in found) {
          if (found.refused === 'otherBrowser') {
            throw otherBrowser(
              `is the ${cookie.name} cookie of another browser than the one that started it`,
            );
          }
          throw invalid(
            'body.state',
            'matches no open sign-in attempt of this server (it expired or was used): start again with GET /api/auth/aad',
          );
        }
        const attempt = found.taken;
        const callback = new URL(attempt.redirect_uri);
        callback.searchParams.set('code', code);
        callback.searchParams.set('state', state);
        if (iss) callback.searchParams.set('iss', iss);
        const { identity, tokens } = await ctx.directory.exchangeCode(callback, {
          state: attempt.state,
          nonce: attempt.nonce,
          codeVerifier: attempt.code_verifier,
        });
        return ok(await startSession(ctx, identity, tokens, 'web'));
      },
    );

    app.post(
      '/auth/team',
      {
        config: limited,
        schema: {
          summary: "Sign in with the Teams tab's single sign-on token",
          body: TeamRequest,
          response: { 200: okEnvelope(SignInResponse) },
        },
      },
      async (request) => {
        const identity = await ctx.directory.verifyTeamToken(request.body.token);
        let tokens: Awaited<ReturnType<typeof ctx.directory.onBehalfOf>>;
        try {
          tokens = await ctx.directory.onBehalfOf(request.body.token);
        } catch (error) {
          if (error instanceof ConsentRequiredError) {
            throw new AppError(
              'consentRequired',
              `The directory needs consent before BTalk may read this person's profile (${error.message}): open the consent popup, then sign in again.`,
            );
          }
          throw error;
        }
        return ok(await startSession(ctx, identity, tokens, 'team'));
      },
    );

    app.post(
      '/auth/refresh',
      {
        config: limited,
        schema: {
          summary: 'Trade the refresh token for new tokens (the refresh token rotates)',
          body: RefreshRequest,
          response: { 200: okEnvelope(RefreshResponse) },
        },
      },
      async (request) => {
        checkRedirectUri('body.redirectUri', request.body.redirectUri);
        return ok(await refreshSession(ctx, request.body.refreshToken));
      },
    );

    app.post(
      '/auth/logout',
      {
        onRequest: authenticate(ctx),
        config: { ...limited, termsExempt: true },
        schema: {
          summary: 'Sign out: end this session and its refresh tokens',
          response: { 200: okEnvelope(LogoutResponse) },
        },
      },
      async (request) => {
        await transact(ctx, (trx) => signOutRecorder(trx, request.user.id, request.sessionId));
        return ok({ signedOut: true as const });
      },
    );
  };
}
