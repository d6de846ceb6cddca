import type { Me, User, UserProfile } from '@btalk/contracts';
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

/** A person's profile card, with their manager (null when the directory names none BTalk knows). */
export function presentProfile(
  row: UserRow,
  manager: Pick<UserRow, 'id' | 'display_name' | 'email'> | null,
): UserProfile {
  return {
    id: row.id,
    displayName: row.display_name,
    givenName: row.given_name,
    surname: row.surname,
    email: row.email,
    jobTitle: row.job_title,
    department: row.department,
    phone: row.phone,
    manager: manager ? { id: manager.id, displayName: manager.display_name, email: manager.email } : null,
    disabled: row.disabled !== 0,
  };
}
