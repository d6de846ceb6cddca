import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { SignInAttemptsTable } from '../db/schema.ts';
import { now } from '../ids.ts';

/**
 * Records a sign-in attempt (state, nonce, PKCE verifier, and the hash of the sign-in cookie of the
 * browser that started it) and clears expired ones.
 */
export async function signInAttemptRecorder(
  trx: Kysely<Database>,
  attempt: {
    state: string;
    nonce: string;
    codeVerifier: string;
    redirectUri: string;
    browserHash: string;
    expiresAt: string;
  },
): Promise<void> {
  const at = now();
  await trx.deleteFrom('sign_in_attempts').where('expires_at', '<', at).execute();
  await trx
    .insertInto('sign_in_attempts')
    .values({
      state: attempt.state,
      nonce: attempt.nonce,
      code_verifier: attempt.codeVerifier,
      redirect_uri: attempt.redirectUri,
      browser_hash: attempt.browserHash,
      created_at: at,
      expires_at: attempt.expiresAt,
    })
    .execute();
}

/**
 * What taking a sign-in attempt found: the attempt, or why not: `unknown` when no open attempt has
 * the state (never made, expired, or already used), `otherBrowser` when another browser started it.
 */
export type TakenSignInAttempt = { taken: SignInAttemptsTable } | { refused: 'unknown' | 'otherBrowser' };

/**
 * Takes the sign-in attempt of a state for the browser whose sign-in cookie hashes to
 * `browserHash`: deletes it, so that each attempt is used once, and returns it unless it has
 * expired. An attempt that another browser started is left as it is: whoever presents it without
 * that browser's cookie (a login CSRF link, or someone who saw the callback's address) can neither
 * use it nor spoil it for the person signing in.
 */
export async function signInAttemptTaker(
  trx: Kysely<Database>,
  state: string,
  browserHash: string,
): Promise<TakenSignInAttempt> {
  // Comparing hashes in SQL leaks nothing useful through timing: a match needs a SHA-256 preimage.
  const taken = await trx
    .deleteFrom('sign_in_attempts')
    .where('state', '=', state)
    .where('browser_hash', '=', browserHash)
    .returningAll()
    .executeTakeFirst();
  if (taken) return Date.parse(taken.expires_at) <= Date.now() ? { refused: 'unknown' } : { taken };
  const open = await trx
    .selectFrom('sign_in_attempts')
    .select('expires_at')
    .where('state', '=', state)
    .executeTakeFirst();
  return open && Date.parse(open.expires_at) > Date.now()
    ? { refused: 'otherBrowser' }
    : { refused: 'unknown' };
}
