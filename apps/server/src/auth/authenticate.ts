import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/index.ts';
import { reusable } from '../db/reusable.ts';
import type { UserRow } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { type AccessClaims, AccessTokenError } from './accessTokens.ts';
import { requireAcceptedTerms } from './termsGate.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in person, set by `authenticate`. Routes that need a person run it first. */
    user: UserRow;
    /** The session (refresh-token family) of the access token. */
    sessionId: string;
  }
}

/**
 * An onRequest hook that requires `Authorization: Bearer <access token>`: checks the token, loads
 * the person, and refuses disabled people and tokens issued before the person's `tokens_valid_after`
 * (sign-out everywhere, disabling). Answers 401 with envelope code 4010 otherwise. Then runs the
 * terms gate (auth/termsGate.ts): 4404 unless the route is `config: { termsExempt: true }`.
 */
export function authenticate(ctx: AppContext) {
  return async function authenticateHook(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
    if (!match?.[1]) {
      throw new AppError('unauthenticated', 'Sign in first: send Authorization: Bearer <access token>.');
    }
    const { user, claims } = await personForAccessToken(ctx, match[1]);
    await requireAcceptedTerms(ctx.terms, request, user);
    request.user = user;
    request.sessionId = claims.sid;
  };
}

/**
 * The person of a token with their session's state: the query every authenticated request makes,
 * built once (building it with Kysely on every request was about a tenth of an authenticated
 * `GET /api/me`'s CPU, docs/benchmarks.md, issue 14 point 4).
 */
const personAndSession = reusable((kysely: Kysely<Database>, userId: string, sessionId: string) =>
  kysely
    .selectFrom('users')
    .leftJoin('sessions', (join) =>
      join.onRef('sessions.user_id', '=', 'users.id').on('sessions.id', '=', sessionId),
    )
    .selectAll('users')
    .select(['sessions.id as session_id', 'sessions.revoked_at as session_revoked_at'])
    .where('users.id', '=', userId),
);

/**
 * Checks an access token and loads its person: the one rule for HTTP requests (`authenticate`) and
 * the realtime socket. Throws AppError('unauthenticated') for a bad or expired token, a disabled or
 * unknown person, or a token issued before the person's `tokens_valid_after`.
 */
export async function personForAccessToken(
  ctx: AppContext,
  token: string,
): Promise<{ user: UserRow; claims: AccessClaims }> {
  let claims: AccessClaims;
  try {
    claims = await ctx.tokens.verify(token);
  } catch (error) {
    if (error instanceof AccessTokenError) throw new AppError('unauthenticated', error.message);
    throw error;
  }
  const [row] = await personAndSession(ctx.db.kysely, claims.sub, claims.sid);
  let user: UserRow | undefined;
  if (row) {
    const { session_id, session_revoked_at, ...rest } = row;
    user = rest;
    // The token's session must still be open: a family ended (sign-out, a reused refresh token,
    // an administrator) takes its access tokens with it, not only its refresh tokens.
    if (session_id === null || session_revoked_at !== null) {
      throw new AppError('unauthenticated', 'This session has ended: sign in again.');
    }
  }
  assertStillSignedIn(user, claims);
  return { user, claims };
}

/** Refuses a missing or disabled person, and a token issued before their `tokens_valid_after`. */
export function assertStillSignedIn(
  user: UserRow | undefined,
  claims: Pick<AccessClaims, 'iat'>,
): asserts user is UserRow {
  if (!user || user.disabled) {
    throw new AppError(
      'unauthenticated',
      'This account is not active: sign in again or ask an administrator.',
    );
  }
  if (user.tokens_valid_after && claims.iat * 1000 < Date.parse(user.tokens_valid_after)) {
    throw new AppError('unauthenticated', 'This session has ended: sign in again.');
  }
}
