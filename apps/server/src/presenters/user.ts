import type { User } from '@btalk/contracts';
import type { UserRow } from '../db/schema.ts';

/** A person as the API shows them; never the row itself. */
export function presentUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    displayName: row.display_name,
    department: row.department,
    jobTitle: row.job_title,
    locale: row.locale,
    role: row.role,
  };
}
