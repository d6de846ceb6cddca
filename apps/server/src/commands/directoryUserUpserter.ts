import type { Kysely } from 'kysely';
import type { DirectoryIdentity, GraphProfile } from '../auth/directoryClient.ts';
import type { Database } from '../db/index.ts';
import type { UserRow, UserUpdate } from '../db/schema.ts';
import { newId, now } from '../ids.ts';
import { directoryAccessApplier, lockAdmins } from './personAccess.ts';

/** The Entra-style app role that makes a person a BTalk administrator. */
export const ADMIN_APP_ROLE = 'BTalk.Admin';

function localeOf(language: string | null | undefined): 'th' | 'en' | null {
  if (!language) return null;
  if (/^th\b/i.test(language)) return 'th';
  if (/^en\b/i.test(language)) return 'en';
  return null;
}

/**
 * Creates or updates the person a directory sign-in names, keyed by the directory's issuer and
 * subject (never by e-mail), from the token's claims and, when there is one, the Graph profile.
 * The token's app roles decide the admin role of a person whose role comes from the directory: the
 * `BTalk.Admin` role gives it, its absence takes it away (a role set in BTalk's People screen stays).
 * A person the directory disabled is enabled again: the directory has just let them sign in.
 */
export async function directoryUserUpserter(
  trx: Kysely<Database>,
  identity: DirectoryIdentity,
  profile: GraphProfile | null,
): Promise<UserRow> {
  const at = now();
  const email = profile?.mail ?? identity.email ?? profile?.userPrincipalName ?? identity.subject;
  const displayName = profile?.displayName ?? identity.name ?? email;
  const locale = localeOf(profile?.preferredLanguage) ?? localeOf(identity.locale);
  const admin = identity.roles.includes(ADMIN_APP_ROLE);
  const update: UserUpdate = {
    tenant_id: identity.tenantId,
    email,
    display_name: displayName,
    updated_at: at,
    ...(profile
      ? {
          department: profile.department,
          ...(profile.givenName !== undefined ? { given_name: profile.givenName } : {}),
          ...(profile.surname !== undefined ? { surname: profile.surname } : {}),
          job_title: profile.jobTitle,
          phone: profile.phone,
          manager_subject: profile.managerId,
        }
      : {}),
    ...(locale ? { locale } : {}),
  };
  const person = await trx
    .insertInto('users')
    .values({
      id: newId(),
      issuer: identity.issuer,
      subject: identity.subject,
      tenant_id: identity.tenantId,
      email,
      display_name: displayName,
      department: profile?.department ?? null,
      given_name: profile?.givenName ?? null,
      surname: profile?.surname ?? null,
      job_title: profile?.jobTitle ?? null,
      phone: profile?.phone ?? null,
      manager_subject: profile?.managerId ?? null,
      locale: locale ?? 'en',
      // New people start as members; the directory's word below gives the role, audited.
      role: 'member',
      tokens_valid_after: null,
      created_at: at,
      updated_at: at,
    })
    .onConflict((oc) => oc.columns(['issuer', 'subject']).doUpdateSet(update))
    .returningAll()
    .executeTakeFirstOrThrow();
  await lockAdmins(trx);
  return (await directoryAccessApplier(trx, person, { admin, enabled: true }, 'sign-in')).person;
}
