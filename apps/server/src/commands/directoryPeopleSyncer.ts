import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import { newId, now } from '../ids.ts';

/** One person as a directory lists them, for the users table. */
export interface ListedPerson {
  subject: string;
  tenantId: string | null;
  email: string;
  displayName: string;
  department: string | null;
  jobTitle: string | null;
  /** Mobile or business phone number. */
  phone: string | null;
  /** The manager's subject at the same directory. */
  managerSubject: string | null;
  locale: 'th' | 'en';
  admin: boolean;
}

/**
 * Creates or updates every listed person of a directory in the users table, so that managers see
 * (and the call tree reaches) reports who never signed in. Like sign-in, it never demotes an admin.
 */
export async function directoryPeopleSyncer(
  trx: Kysely<Database>,
  issuer: string,
  listed: readonly ListedPerson[],
): Promise<number> {
  const at = now();
  for (const person of listed) {
    const fields = {
      tenant_id: person.tenantId,
      email: person.email,
      display_name: person.displayName,
      department: person.department,
      job_title: person.jobTitle,
      phone: person.phone,
      manager_subject: person.managerSubject,
      locale: person.locale,
    };
    await trx
      .insertInto('users')
      .values({
        id: newId(),
        issuer,
        subject: person.subject,
        ...fields,
        role: person.admin ? 'admin' : 'member',
        tokens_valid_after: null,
        created_at: at,
        updated_at: at,
      })
      .onConflict((oc) =>
        oc
          .columns(['issuer', 'subject'])
          .doUpdateSet({ ...fields, ...(person.admin ? { role: 'admin' as const } : {}), updated_at: at }),
      )
      .execute();
  }
  return listed.length;
}
