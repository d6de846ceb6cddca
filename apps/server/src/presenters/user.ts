import type { Me, User } from '@btalk/contracts';
import type { UserRow } from '../db/schema.ts';
import { meAbilities } from '../policies/me.ts';

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

/** The signed-in person, with what they may do (`GET /api/me`, the sign-in answer). */
export function presentMe(row: UserRow): Me {
  return { ...presentUser(row), abilities: meAbilities(row) };
}
