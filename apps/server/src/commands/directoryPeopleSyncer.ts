import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import { newId, now } from '../ids.ts';
import { directoryAccessApplier, lockAdmins } from './personAccess.ts';

/** One person as a directory lists them, for the users table. */
export interface ListedPerson {
  subject: string;
  tenantId: string | null;
  email: string;
  displayName: string;
  /** Given name and surname (Graph `givenName`, `surname`); left as they were when absent. */
  givenName?: string | null;
  surname?: string | null;
  department: string | null;
  jobTitle: string | null;
  /** Mobile or business phone number. */
  phone: string | null;
  /** The manager's subject at the same directory. */
  managerSubject: string | null;
  locale: 'th' | 'en';
  /** Whether the directory gives them BTalk's admin app role; null when the listing cannot tell. */
  admin: boolean | null;
  /** Whether their directory account is enabled (Graph's `accountEnabled`). */
  enabled: boolean;
}

/** A directory's listing of its people. */
export interface DirectoryListing {
  people: ListedPerson[];
  /**
   * Whether every page was read: only then are people of the directory who are missing from it
   * disabled (they were deleted there).
   */
  complete: boolean;
}

/** What a sync changed. */
export interface DirectorySyncSummary {
  listed: number;
  roleChanges: number;
  disabled: number;
  enabled: number;
  /** People the directory took the admin role from but who keep it as the last enabled administrator. */
  keptLastAdmin: number;
}

/**
 * Creates or updates every listed person of a directory in the users table, so that managers see
 * (and the call tree reaches) reports who never signed in, and applies the directory's word on
 * access (personAccess.ts `directoryAccessApplier`): the admin role where it comes from the
 * directory, people disabled there disabled here with every session ended, and, when the listing
 * is complete, people missing from it disabled too. Disabled people not yet known are not added.
 */
export async function directoryPeopleSyncer(
  trx: Kysely<Database>,
  issuer: string,
  listing: DirectoryListing,
): Promise<DirectorySyncSummary> {
  const at = now();
  const summary: DirectorySyncSummary = {
    listed: listing.people.length,
    roleChanges: 0,
    disabled: 0,
    enabled: 0,
    keptLastAdmin: 0,
  };
  const count = (result: Awaited<ReturnType<typeof directoryAccessApplier>>) => {
    if (result.roleChanged) summary.roleChanges += 1;
    if (result.disabled) summary.disabled += 1;
    if (result.enabled) summary.enabled += 1;
    if (result.keptLastAdmin) summary.keptLastAdmin += 1;
  };
  await lockAdmins(trx);
  const known = await trx
    .selectFrom('users')
    .select(['id', 'subject', 'disabled'])
    .where('issuer', '=', issuer)
    .execute();
  const knownSubjects = new Set(known.map((k) => k.subject));
  // Administrators first: a new one is in place before another loses the role (never none between).
  const ordered = [...listing.people].sort((a, b) => Number(b.admin === true) - Number(a.admin === true));
  for (const person of ordered) {
    if (!person.enabled && !knownSubjects.has(person.subject)) continue;
    const fields = {
      tenant_id: person.tenantId,
      email: person.email,
      display_name: person.displayName,
      ...(person.givenName !== undefined ? { given_name: person.givenName } : {}),
      ...(person.surname !== undefined ? { surname: person.surname } : {}),
      department: person.department,
      job_title: person.jobTitle,
      phone: person.phone,
      manager_subject: person.managerSubject,
      locale: person.locale,
    };
    const row = await trx
      .insertInto('users')
      .values({
        id: newId(),
        issuer,
        subject: person.subject,
        ...fields,
        role: 'member',
        tokens_valid_after: null,
        created_at: at,
        updated_at: at,
      })
      .onConflict((oc) => oc.columns(['issuer', 'subject']).doUpdateSet({ ...fields, updated_at: at }))
      .returningAll()
      .executeTakeFirstOrThrow();
    count(await directoryAccessApplier(trx, row, { admin: person.admin, enabled: person.enabled }, 'sync'));
  }
  if (listing.complete) {
    const listed = new Set(listing.people.map((p) => p.subject));
    for (const gone of known.filter((k) => !k.disabled && !listed.has(k.subject))) {
      const row = await trx
        .selectFrom('users')
        .selectAll()
        .where('id', '=', gone.id)
        .executeTakeFirstOrThrow();
      count(await directoryAccessApplier(trx, row, { admin: null, enabled: false }, 'sync'));
    }
  }
  return summary;
}
