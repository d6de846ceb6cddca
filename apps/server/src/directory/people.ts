import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** One person of the development directory (people.json). */
const DirectoryPerson = z.object({
  /** Directory object id (as Entra's `oid`); also the subject of their tokens. */
  id: z.string().uuid(),
  email: z.string().email(),
  /** Name in Latin script. */
  displayName: z.string(),
  /** Name in Thai script. */
  displayNameTh: z.string(),
  givenName: z.string(),
  surname: z.string(),
  department: z.string(),
  jobTitle: z.string(),
  /** Mobile number (fictional: the 555 range), shown to managers who chase an unanswered call tree. */
  mobilePhone: z.string(),
  /** `th` or `en`: also decides which of the two names the directory shows. */
  preferredLanguage: z.enum(['th', 'en']),
  /** `admin` people get the `BTalk.Admin` app role in their tokens. */
  role: z.enum(['admin', 'member']),
  /** The manager's id, or null at the top of the organisation. */
  managerId: z.string().uuid().nullable(),
  /** When true, Graph access on this person's behalf needs consent first (as a new Entra user). */
  graphConsentRequired: z.boolean().optional(),
});
export type DirectoryPerson = z.infer<typeof DirectoryPerson>;

/** The password of every development person; printed in the README. Development only. */
export const DEVELOPMENT_PASSWORD = 'btalk';

/** The tenant id the development directory puts in its tokens (`tid`), like an Entra tenant. */
export const DEVELOPMENT_TENANT_ID = '00000000-0000-4000-8000-00000000b7a1';

/** The seeded people of the development directory, checked once when first needed. */
export const people: readonly DirectoryPerson[] = z
  .array(DirectoryPerson)
  .parse(JSON.parse(readFileSync(new URL('./people.json', import.meta.url), 'utf8')));

const byId = new Map(people.map((p) => [p.id, p]));
const byEmail = new Map(people.map((p) => [p.email.toLowerCase(), p]));

/** A person by directory id. */
export function personById(id: string): DirectoryPerson | undefined {
  return byId.get(id);
}

/** A person by e-mail address, in any letter case. */
export function personByEmail(email: string): DirectoryPerson | undefined {
  return byEmail.get(email.trim().toLowerCase());
}

/** The name the directory shows for a person: in Thai script when they prefer Thai. */
export function shownName(person: DirectoryPerson): string {
  return person.preferredLanguage === 'th' ? person.displayNameTh : person.displayName;
}

/** The people who report to a person directly. */
export function directReports(id: string): DirectoryPerson[] {
  return people.filter((p) => p.managerId === id);
}
