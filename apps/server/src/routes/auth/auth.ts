import {
  AadQuery,
  AadResponse,
  CodeRequest,
  LogoutResponse,
  okEnvelope,
  RefreshRequest,
  RefreshResponse,
  SignInResponse,
  TeamRequest,
} from '@btalk/contracts';
import rateLimit from '@fastify/rate-limit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Redis } from 'ioredis';
import * as oidc from 'openid-client';
import { authenticate } from '../../auth/authenticate.ts';
import { ConsentRequiredError } from '../../auth/directoryClient.ts';
import { refreshSession, startSession } from '../../auth/sessions.ts';
import { signOutRecorder } from '../../commands/sessionCommands.ts';
import { signInAttemptRecorder, signInAttemptTaker } from '../../commands/signInAttempts.ts';
import { transact } from '../../commands/transact.ts';
import type { AppContext } from '../../context.ts';
import { ok } from '../../http/envelope.ts';
import { AppError, invalid } from '../../http/errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route works for people who have not accepted the current terms of use (read by authenticate). */
    termsExempt?: boolean;
  }
}

/** How long a sign-in attempt (state, nonce, PKCE verifier) may wait for its callback. */
const ATTEMPT_TTL_MS = 10 * 60_000;

/**
 * `/api/auth/*`: sign-in with the directory (`aad`, `code`), Teams single sign-on (`team`), session
 * refresh with rotating refresh tokens (`refresh`) and sign-out (`logout`). Every route is rate
 * limited per client address.
 */
export function authRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { config } = ctx;
  const settings = config.directory;
  const limited = { rateLimit: { max: config.authRateLimitPerMinute, timeWindow: '1 minute' } };
  const checkRedirectUri = (field: string, sent: string | undefined) => {
    if (sent !== undefined && sent !== settings.redirectUri) {
      throw invalid(field, `must be exactly ${settings.redirectUri}, this server's /aad/callback address`);
    }
  };

  return async (app) => {
    const redis = config.redisUrl ? new Redis(config.redisUrl, { lazyConnect: false }) : null;
    if (redis) app.addHook('onClose', async () => void (await redis.quit()));
    // With Redis the limits hold across every instance; otherwise per instance.
    await app.register(rateLimit, {
      global: false,
      ...(redis ? { redis, nameSpace: 'btalk-auth-rl:' } : {}),
    });

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
      async (request) => {
        checkRedirectUri('query.redirectUri', request.query.redirectUri);
        const attempt = {
          state: oidc.randomState(),
          nonce: oidc.randomNonce(),
          codeVerifier: oidc.randomPKCECodeVerifier(),
          redirectUri: settings.redirectUri,
          expiresAt: new Date(Date.now() + ATTEMPT_TTL_MS).toISOString(),
        };
        const url = await ctx.directory.authorizationUrl(attempt);
        await transact(ctx, (trx) => signInAttemptRecorder(trx, attempt));
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
        const attempt = await transact(ctx, (trx) => signInAttemptTaker(trx, state));
        if (!attempt) {
          throw invalid(
            'body.state',
            'matches no open sign-in attempt of this server (it expired or was used): start again with GET /api/auth/aad',
          );
        }
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
