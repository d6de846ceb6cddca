import { AccessEventName } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import type { DirectoryTokens } from '../auth/directoryClient.ts';
import { hashToken, randomToken, type Sealer } from '../auth/seal.ts';
import type { Database } from '../db/index.ts';
import { recordEvent } from '../events/eventLog.ts';
import { newId, now } from '../ids.ts';

const DAY_MS = 86_400_000;

/** Starts a session (a new refresh-token family) for a person; answers its id and first refresh token. */
export async function sessionStarter(
  trx: Kysely<Database>,
  input: {
    userId: string;
    kind: 'web' | 'team';
    directoryTokens: DirectoryTokens;
    sealer: Sealer;
    refreshTtlDays: number;
  },
): Promise<{ sessionId: string; refreshToken: string }> {
  const at = now();
  const sessionId = newId();
  const { directoryTokens: d, sealer } = input;
  await trx
    .insertInto('sessions')
    .values({
      id: sessionId,
      user_id: input.userId,
      kind: input.kind,
      directory_access_token: sealer.seal(d.accessToken),
      directory_access_expires_at: d.accessExpiresAt,
      directory_refresh_token: d.refreshToken ? sealer.seal(d.refreshToken) : null,
      created_at: at,
      refreshed_at: at,
      revoked_at: null,
      revoked_reason: null,
    })
    .execute();
  const refreshToken = randomToken();
  await trx
    .insertInto('refresh_tokens')
    .values({
      id: newId(),
      session_id: sessionId,
      token_hash: hashToken(refreshToken),
      created_at: at,
      expires_at: new Date(Date.now() + input.refreshTtlDays * DAY_MS).toISOString(),
      rotated_at: null,
      successor_id: null,
      successor_sealed: null,
    })
    .execute();
  return { sessionId, refreshToken };
}

/**
 * Trades a current refresh token for its successor: marks it rotated (only if nobody else did
 * first), stores the successor hashed, keeps the answer sealed under the old token for the grace
 * window, and records the directory's renewed tokens. Answers false when another request rotated
 * the token first.
 */
export async function refreshTokenRotator(
  trx: Kysely<Database>,
  input: {
    tokenId: string;
    sessionId: string;
    successor: string;
    /** The answer, sealed with a key derived from the old token. */
    sealedAnswer: string;
    directoryTokens: DirectoryTokens | null;
    sealer: Sealer;
    refreshTtlDays: number;
  },
): Promise<boolean> {
  const at = now();
  const successorId = newId();
  const claimed = await trx
    .updateTable('refresh_tokens')
    .set({ rotated_at: at, successor_id: successorId, successor_sealed: input.sealedAnswer })
    .where('id', '=', input.tokenId)
    .where('rotated_at', 'is', null)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return false;
  await trx
    .insertInto('refresh_tokens')
    .values({
      id: successorId,
      session_id: input.sessionId,
      token_hash: hashToken(input.successor),
      created_at: at,
      expires_at: new Date(Date.now() + input.refreshTtlDays * DAY_MS).toISOString(),
      rotated_at: null,
      successor_id: null,
      successor_sealed: null,
    })
    .execute();
  const d = input.directoryTokens;
  await trx
    .updateTable('sessions')
    .set({
      refreshed_at: at,
      ...(d
        ? {
            directory_access_token: input.sealer.seal(d.accessToken),
            directory_access_expires_at: d.accessExpiresAt,
            directory_refresh_token: d.refreshToken ? input.sealer.seal(d.refreshToken) : null,
          }
        : {}),
    })
    .where('id', '=', input.sessionId)
    .execute();
  return true;
}

/**
 * Ends a session: every refresh token of its family stops working, and the person's sockets of that
 * session are closed (the `session.ended` event in their room).
 */
export async function sessionRevoker(
  trx: Kysely<Database>,
  sessionId: string,
  reason: string,
): Promise<void> {
  const ended = await trx
    .updateTable('sessions')
    .set({ revoked_at: now(), revoked_reason: reason })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .returning('user_id')
    .executeTakeFirst();
  if (ended) await recordSessionEnded(trx, ended.user_id, sessionId, reason);
}

function recordSessionEnded(trx: Kysely<Database>, userId: string, sessionId: string, reason: string) {
  return recordEvent(trx, {
    room: `user:${userId}`,
    type: AccessEventName.sessionEnded,
    payload: { sessionId, reason },
    actorId: userId,
  });
}

/**
 * Signs a person out of the session: ends its refresh-token family and refuses every access token
 * issued until now (other devices refresh theirs once and carry on).
 */
export async function signOutRecorder(
  trx: Kysely<Database>,
  userId: string,
  sessionId: string,
): Promise<void> {
  await trx
    .updateTable('sessions')
    .set({ revoked_at: now(), revoked_reason: 'signed out' })
    .where('id', '=', sessionId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
  await trx.updateTable('users').set({ tokens_valid_after: now() }).where('id', '=', userId).execute();
  // Access tokens issued until now are refused: every socket of the person checks itself again.
  await recordEvent(trx, {
    room: `user:${userId}`,
    type: AccessEventName.sessionsRevoked,
    payload: { sessionId, reason: 'signed out' },
    actorId: userId,
  });
}
