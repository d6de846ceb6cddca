import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { SignInAttemptsTable } from '../db/schema.ts';
import { now } from '../ids.ts';

/** Records a sign-in attempt (state, nonce, PKCE verifier) and clears expired ones. */
export async function signInAttemptRecorder(
  trx: Kysely<Database>,
  attempt: { state: string; nonce: string; codeVerifier: string; redirectUri: string; expiresAt: string },
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
      created_at: at,
      expires_at: attempt.expiresAt,
    })
    .execute();
}

/**
 * Takes the sign-in attempt of a state: deletes it, so that each attempt is used once, and returns
 * it unless it has expired.
 */
export async function signInAttemptTaker(
  trx: Kysely<Database>,
  state: string,
): Promise<SignInAttemptsTable | undefined> {
  const taken = await trx
    .deleteFrom('sign_in_attempts')
    .where('state', '=', state)
    .returningAll()
    .executeTakeFirst();
  if (!taken || Date.parse(taken.expires_at) <= Date.now()) return undefined;
  return taken;
}
