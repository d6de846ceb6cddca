import type { SignInResponse } from '@btalk/contracts';
import { directoryUserUpserter } from '../commands/directoryUserUpserter.ts';
import { refreshTokenRotator, sessionRevoker, sessionStarter } from '../commands/sessionCommands.ts';
import { transact } from '../commands/transact.ts';
import type { AppContext } from '../context.ts';
import type { UserRow } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { presentMe } from '../presenters/user.ts';
import type { DirectoryIdentity, DirectoryTokens } from './directoryClient.ts';
import { hashToken, randomToken, Sealer } from './seal.ts';

/** Renew the directory's access token when it has less than this left. */
const DIRECTORY_RENEW_MARGIN_MS = 5 * 60_000;

/** The answer of a refresh: the new pair and the rotated refresh token. */
export interface RefreshAnswer {
  accessToken: string;
  aadAccessToken: string;
  refreshToken: string;
}

/**
 * Signs an access token for a person. Its `iat` is never before the person's `tokens_valid_after`,
 * so a token made in the same second as a sign-out elsewhere is not refused with the old ones.
 */
export function signAccessToken(ctx: AppContext, user: UserRow, sessionId: string): Promise<string> {
  const nowSeconds = Math.floor(Date.now() / 1000);
  const notBefore = user.tokens_valid_after ? Math.ceil(Date.parse(user.tokens_valid_after) / 1000) : 0;
  return ctx.tokens.sign(user.id, sessionId, Math.max(nowSeconds, notBefore));
}

/**
 * Completes a sign-in (authorization code or Teams token): reads the Graph profile, creates or
 * updates the person, starts a session and answers the three tokens.
 */
export async function startSession(
  ctx: AppContext,
  identity: DirectoryIdentity,
  directoryTokens: DirectoryTokens,
  kind: 'web' | 'team',
): Promise<SignInResponse> {
  const profile = await ctx.directory.graphProfile(directoryTokens.accessToken);
  const { user, sessionId, refreshToken } = await transact(ctx, async (trx) => {
    const user = await directoryUserUpserter(trx, identity, profile);
    if (user.disabled) {
      throw new AppError(
        'forbidden',
        'This account is disabled in BTalk: ask an administrator to enable it.',
      );
    }
    const session = await sessionStarter(trx, {
      userId: user.id,
      kind,
      directoryTokens,
      sealer: ctx.sealer,
      refreshTtlDays: ctx.config.refreshTokenTtlDays,
    });
    return { user, ...session };
  });
  return {
    accessToken: await signAccessToken(ctx, user, sessionId),
    refreshToken,
    aadAccessToken: directoryTokens.accessToken,
    expiresIn: ctx.tokens.ttlSeconds,
    user: presentMe(user),
  };
}

const ended = (why: string) => new AppError('unauthenticated', `${why}: sign in again.`);

async function revoke(ctx: AppContext, sessionId: string, reason: string): Promise<void> {
  await transact(ctx, (trx) => sessionRevoker(trx, sessionId, reason));
}

async function findToken(ctx: AppContext, presented: string) {
  return ctx.db.kysely
    .selectFrom('refresh_tokens as t')
    .innerJoin('sessions as s', 's.id', 't.session_id')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select([
      't.id as tokenId',
      't.expires_at as expiresAt',
      't.rotated_at as rotatedAt',
      't.successor_id as successorId',
      't.successor_sealed as successorSealed',
      's.id as sessionId',
      's.revoked_at as revokedAt',
      's.directory_access_token as directoryAccessToken',
      's.directory_access_expires_at as directoryAccessExpiresAt',
      's.directory_refresh_token as directoryRefreshToken',
      'u.id as userId',
    ])
    .where('t.token_hash', '=', hashToken(presented))
    .executeTakeFirst();
}

type FoundToken = NonNullable<Awaited<ReturnType<typeof findToken>>>;

/** The sealer of the answer a rotated token may repeat: its key is derived from the token itself. */
const graceSealer = (presented: string) => new Sealer(presented, 'refresh-grace');

/**
 * Trades a refresh token for a new access token, directory token and refresh token (rotation).
 * A token rotated less than `refreshGraceSeconds` ago, whose successor is still unused, answers the
 * same new pair (two tabs refreshing at once). Any other reuse of a rotated token ends the whole
 * session: someone else may hold a copy.
 */
export async function refreshSession(ctx: AppContext, presented: string): Promise<RefreshAnswer> {
  const found = await findToken(ctx, presented);
  if (!found) throw ended('This refresh token is not valid');
  if (found.revokedAt) throw ended('This session has ended');
  if (found.rotatedAt) return replay(ctx, presented, found);
  if (Date.parse(found.expiresAt) <= Date.now()) throw ended('This refresh token has expired');

  const user = await ctx.db.kysely
    .selectFrom('users')
    .selectAll()
    .where('id', '=', found.userId)
    .executeTakeFirstOrThrow();
  if (user.disabled) {
    await revoke(ctx, found.sessionId, 'person disabled');
    throw ended('This account is disabled');
  }

  let renewed: DirectoryTokens | null = null;
  const renewBy = Date.parse(found.directoryAccessExpiresAt) - DIRECTORY_RENEW_MARGIN_MS;
  if (found.directoryRefreshToken && renewBy <= Date.now()) {
    try {
      renewed = await ctx.directory.refresh(ctx.sealer.unseal(found.directoryRefreshToken));
    } catch (error) {
      if (error instanceof AppError && error.kind === 'unauthenticated') {
        await revoke(ctx, found.sessionId, 'directory refused to renew');
      }
      throw error;
    }
  }
  const answer: RefreshAnswer = {
    accessToken: await signAccessToken(ctx, user, found.sessionId),
    aadAccessToken: renewed?.accessToken ?? ctx.sealer.unseal(found.directoryAccessToken),
    refreshToken: randomToken(),
  };
  const rotated = await transact(ctx, (trx) =>
    refreshTokenRotator(trx, {
      tokenId: found.tokenId,
      sessionId: found.sessionId,
      successor: answer.refreshToken,
      sealedAnswer: graceSealer(presented).seal(JSON.stringify(answer)),
      directoryTokens: renewed,
      sealer: ctx.sealer,
      refreshTtlDays: ctx.config.refreshTokenTtlDays,
    }),
  );
  if (rotated) return answer;
  // Another request rotated this token a moment ago: answer as it did.
  const now = await findToken(ctx, presented);
  if (!now) throw ended('This refresh token is not valid');
  return replay(ctx, presented, now);
}

async function replay(ctx: AppContext, presented: string, found: FoundToken): Promise<RefreshAnswer> {
  const withinGrace =
    found.rotatedAt !== null &&
    Date.now() - Date.parse(found.rotatedAt) <= ctx.config.refreshGraceSeconds * 1000;
  const successor = found.successorId
    ? await ctx.db.kysely
        .selectFrom('refresh_tokens')
        .select('rotated_at')
        .where('id', '=', found.successorId)
        .executeTakeFirst()
    : undefined;
  if (withinGrace && found.successorSealed && successor && successor.rotated_at === null) {
    return JSON.parse(graceSealer(presented).unseal(found.successorSealed)) as RefreshAnswer;
  }
  await revoke(ctx, found.sessionId, 'rotated refresh token reused');
  throw ended('This refresh token was already used, so the session was ended to protect it');
}
