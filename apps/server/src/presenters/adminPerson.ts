import type { AdminPerson } from '@btalk/contracts';
import type { UserRow } from '../db/schema.ts';
import { personAbilities } from '../policies/person.ts';

/** A person as the People screen shows them to `viewer`, with what the viewer may do to them. */
export function presentAdminPerson(viewer: UserRow, row: UserRow): AdminPerson {
  return {
    id: row.id,
    email: row.email,
    displayName: row.display_name,
    department: row.department,
    jobTitle: row.job_title,
    role: row.role,
    roleSource: row.role_source,
    disabled: row.disabled === 1,
    disabledSource: row.disabled_source,
    abilities: personAbilities(viewer, row),
  };
}
