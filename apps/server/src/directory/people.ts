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
  /** False for a person whose account is disabled: they cannot sign in, and sync disables them. */
  accountEnabled: z.boolean().optional(),
});
export type DirectoryPerson = z.infer<typeof DirectoryPerson>;

/** The password of every development person; printed in the README. Development only. */
export const DEVELOPMENT_PASSWORD = 'btalk';

/** The tenant id the development directory puts in its tokens (`tid`), like an Entra tenant. */
export const DEVELOPMENT_TENANT_ID = '00000000-0000-4000-8000-00000000b7a1';

const seeded: readonly DirectoryPerson[] = z
  .array(DirectoryPerson)
  .parse(JSON.parse(readFileSync(new URL('./people.json', import.meta.url), 'utf8')));
const current: DirectoryPerson[] = [...seeded];

/**
 * The people of the development directory: the seeded ones (people.json), as changed by
 * `changeDevelopmentPeople` while the process runs.
 */
export const people: readonly DirectoryPerson[] = current;

const byId = new Map<string, DirectoryPerson>();
const byEmail = new Map<string, DirectoryPerson>();
function index(): void {
  byId.clear();
  byEmail.clear();
  for (const p of current) {
    byId.set(p.id, p);
    byEmail.set(p.email.toLowerCase(), p);
  }
}
index();

/**
 * Changes the development directory's people in this process, as a directory administrator changes
 * Entra ID (take an app role away, disable an account, delete a person): `change` gets a copy of the
 * list and answers the new one. Sign-in, the Graph subset and sync see the change at once. Used by
 * the tests of directory sync; `restoreDevelopmentPeople` goes back to people.json.
 */
export function changeDevelopmentPeople(change: (list: DirectoryPerson[]) => DirectoryPerson[]): void {
  const next = z.array(DirectoryPerson).parse(change(current.map((p) => ({ ...p }))));
  current.splice(0, current.length, ...next);
  index();
}

/** Puts the development directory's people back as people.json has them. */
export function restoreDevelopmentPeople(): void {
  current.splice(0, current.length, ...seeded);
  index();
}

/** Whether the person's directory account is enabled. */
export function accountEnabled(person: DirectoryPerson): boolean {
  return person.accountEnabled !== false;
}

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
