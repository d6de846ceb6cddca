import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';

/**
 * The development directory's record of people's consent to an app's Graph permissions, kept with
 * its other records (table `directory_records`, model `GraphConsent`), without expiry: as on Entra ID,
 * a person consents once per app, and only withdrawing it (not done here) asks them again.
 */
const MODEL = 'GraphConsent';

const recordId = (clientId: string, accountId: string) => `${clientId}:${accountId}`;

/** Records that the person consented to the client's Graph permissions (again: no change). */
export async function recordGraphConsent(
  db: Kysely<Database>,
  clientId: string,
  accountId: string,
): Promise<void> {
  await db
    .insertInto('directory_records')
    .values({
      model: MODEL,
      id: recordId(clientId, accountId),
      payload: JSON.stringify({ clientId, accountId, consentedAt: new Date().toISOString() }),
      grant_id: null,
      uid: null,
      user_code: null,
      expires_at: null,
    })
    .onConflict((oc) => oc.columns(['model', 'id']).doNothing())
    .execute();
}

/** Whether the person consented to the client's Graph permissions. */
export async function hasGraphConsent(
  db: Kysely<Database>,
  clientId: string,
  accountId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('directory_records')
    .select('id')
    .where('model', '=', MODEL)
    .where('id', '=', recordId(clientId, accountId))
    .executeTakeFirst();
  return row !== undefined;
}
