import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { UserRow } from '../db/schema.ts';

/**
 * The enabled BTalk person a Teams activity comes from: `from.aadObjectId` is their Entra object id,
 * which is the directory subject BTalk keys people by (auth/directoryClient.ts `identity`). A person
 * recorded with a tenant must be in the activity's tenant (object ids are only unique within one);
 * people of a directory without tenants (the development directory) match on the subject alone.
 * Undefined for people BTalk does not know or has disabled: they cannot use BTalk from Teams either.
 */
export async function personForTeamsUser(
  db: Kysely<Database>,
  aadObjectId: string | null | undefined,
  tenantId: string | null | undefined,
): Promise<UserRow | undefined> {
  if (!aadObjectId) return undefined;
  const people = await db
    .selectFrom('users')
    .selectAll()
    .where('subject', '=', aadObjectId)
    .where('disabled', '=', 0)
    .where((eb) =>
      tenantId
        ? eb.or([eb('tenant_id', '=', tenantId), eb('tenant_id', 'is', null)])
        : eb('tenant_id', 'is', null),
    )
    .execute();
  // Two directories' people under one subject (an issuer changed): nobody can tell which is meant.
  return people.length === 1 ? people[0] : undefined;
}
