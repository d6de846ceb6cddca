import type { Kysely } from 'kysely';
import { type AuditClient, audit } from '../audit/audit.ts';
import type { Database } from '../db/index.ts';
import type { TermsAcceptanceRow, UserRow } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { newId, now } from '../ids.ts';

/** What accepting the terms takes. */
export interface TermsAcceptanceInput {
  /** The person accepting. */
  actor: UserRow;
  /** The version they read. */
  version: number;
  client: AuditClient;
}

/**
 * Records that a person accepted the current terms version, with the time and client, in the audit
 * log too; and moves the person's accepted version forward, which is what the terms gate reads.
 * Accepting the same version again changes nothing and answers the first acceptance. Accepting a
 * version that is no longer current is refused (4405): the person has not read the current text.
 */
export async function termsAccepter(
  trx: Kysely<Database>,
  input: TermsAcceptanceInput,
): Promise<TermsAcceptanceRow> {
  const { actor, version, client } = input;
  const current = await trx
    .selectFrom('terms_versions')
    .select('version')
    .orderBy('version', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!current || version > current.version) {
    throw new AppError(
      'notFound',
      `There is no terms version ${version}: the current version is ${current?.version ?? 'none'}. Read GET /api/terms/current.`,
    );
  }
  if (version < current.version) {
    throw new AppError(
      'termsOutdated',
      `Version ${version} of the terms is no longer current: read version ${current.version} with GET /api/terms/current and accept that one.`,
    );
  }

  const inserted = await trx
    .insertInto('terms_acceptances')
    .values({ id: newId(), user_id: actor.id, version, client_kind: client.kind, accepted_at: now() })
    .onConflict((oc) => oc.columns(['user_id', 'version']).doNothing())
    .returningAll()
    .executeTakeFirst();
  // Moved forward even when the acceptance existed, so that the gate always agrees with the record.
  await trx
    .updateTable('users')
    .set({ terms_accepted_version: version })
    .where('id', '=', actor.id)
    .where((eb) =>
      eb.or([eb('terms_accepted_version', 'is', null), eb('terms_accepted_version', '<', version)]),
    )
    .execute();
  if (!inserted) {
    return trx
      .selectFrom('terms_acceptances')
      .selectAll()
      .where('user_id', '=', actor.id)
      .where('version', '=', version)
      .executeTakeFirstOrThrow();
  }
  await audit(trx, {
    actorId: actor.id,
    action: 'terms.accepted',
    target: `terms:${version}`,
    details: { version },
    client,
  });
  return inserted;
}
