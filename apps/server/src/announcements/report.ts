import type {
  AnnouncementBranch,
  AnnouncementDepartment,
  AnnouncementPeopleStatus,
  AnnouncementPerson,
  AnnouncementTotals,
} from '@btalk/contracts';
import type { Kysely } from 'kysely';
import { timeInZone, toCsv, UTF8_BOM } from '../calltree/csv.ts';
import type { Database } from '../db/index.ts';
import { decodeCursor, encodeCursor } from '../http/cursor.ts';

/**
 * The roll-up of an announcement's audience (issue 17), computed in memory from two queries whatever
 * the audience's size: the audience joined with its people, and the directory's people (id, name and
 * manager key) for the manager chains, so managers outside the audience still head their branches.
 */

/** One person of the audience with their status and place in the directory's hierarchy. */
export interface AudiencePerson {
  id: string;
  displayName: string;
  email: string;
  department: string | null;
  managerId: string | null;
  managerName: string | null;
  seenAt: string | null;
  acknowledgedAt: string | null;
  /** Their managers, nearest first (the directory's manager chain; cut where it would loop). */
  chain: string[];
}

/** The audience of a post and the names of everyone in its chains. */
export interface Audience {
  people: AudiencePerson[];
  /** Names by user id, for branch heads outside the audience. */
  names: Map<string, string>;
  /** Each person's manager (by user id), for branch heads outside the audience. */
  managers: Map<string, string | null>;
}

/**
 * A person's managers from the directory's manager of each person, nearest first; cut where the chain
 * would loop (a directory may hold a cycle).
 */
export function managerChain(managers: Map<string, string | null>): (id: string) => string[] {
  return (id) => {
    const chain: string[] = [];
    const seen = new Set([id]);
    for (let m = managers.get(id) ?? null; m !== null && !seen.has(m); m = managers.get(m) ?? null) {
      chain.push(m);
      seen.add(m);
    }
    return chain;
  };
}

/** Loads the audience of a post with their managers' chains: two queries. */
export async function loadAudience(db: Kysely<Database>, postId: string): Promise<Audience> {
  const [rows, directory] = await Promise.all([
    db
      .selectFrom('announcement_recipients as r')
      .innerJoin('users as u', 'u.id', 'r.user_id')
      .select(['u.id', 'u.display_name', 'u.email', 'u.department', 'r.seen_at', 'r.acknowledged_at'])
      .where('r.post_id', '=', postId)
      .execute(),
    db.selectFrom('users').select(['id', 'display_name', 'issuer', 'subject', 'manager_subject']).execute(),
  ]);
  const bySubject = new Map<string, string>();
  const names = new Map<string, string>();
  for (const u of directory) {
    bySubject.set(`${u.issuer}\u0000${u.subject}`, u.id);
    names.set(u.id, u.display_name);
  }
  const managers = new Map<string, string | null>();
  for (const u of directory) {
    const manager = u.manager_subject ? bySubject.get(`${u.issuer}\u0000${u.manager_subject}`) : undefined;
    managers.set(u.id, manager && manager !== u.id ? manager : null);
  }
  const chainOf = managerChain(managers);
  const people = rows.map((r): AudiencePerson => {
    const managerId = managers.get(r.id) ?? null;
    return {
      id: r.id,
      displayName: r.display_name,
      email: r.email,
      department: r.department,
      managerId,
      managerName: managerId ? (names.get(managerId) ?? null) : null,
      seenAt: r.seen_at,
      acknowledgedAt: r.acknowledged_at,
      chain: chainOf(r.id),
    };
  });
  return { people, names, managers };
}

/** Counts of a set of people. */
export function countPeople(people: Pick<AudiencePerson, 'seenAt' | 'acknowledgedAt'>[]): AnnouncementTotals {
  let seen = 0;
  let acknowledged = 0;
  for (const p of people) {
    if (p.seenAt !== null || p.acknowledgedAt !== null) seen += 1;
    if (p.acknowledgedAt !== null) acknowledged += 1;
  }
  return { audience: people.length, seen, acknowledged, notYet: people.length - acknowledged };
}

/** Only the people of a department ("" for people without one); everyone without a filter. */
export function inDepartment(people: AudiencePerson[], department: string | undefined): AudiencePerson[] {
  if (department === undefined) return people;
  return people.filter((p) => (p.department ?? '') === department);
}

/** Every department of the audience with its counts, most people first, then by name. */
export function departmentsOf(people: AudiencePerson[]): AnnouncementDepartment[] {
  const groups = new Map<string, AudiencePerson[]>();
  for (const p of people) {
    const name = p.department ?? '';
    const group = groups.get(name);
    if (group) group.push(p);
    else groups.set(name, [p]);
  }
  return [...groups]
    .map(([name, members]) => ({ name, ...countPeople(members) }))
    .sort((a, b) => b.audience - a.audience || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

const byName = (names: Map<string, string>) => (a: string, b: string) => {
  const na = names.get(a) ?? '';
  const nb = names.get(b) ?? '';
  return na < nb ? -1 : na > nb ? 1 : a < b ? -1 : a > b ? 1 : 0;
};

/**
 * The branches of the manager hierarchy over `people`: everyone who manages someone of them (directly
 * or further down), with the counts of everyone of them under them, them included; depth first, each
 * level in name order. A person at the top of a chain is at depth 0.
 */
export function branchesOf(audience: Audience, people: AudiencePerson[]): AnnouncementBranch[] {
  const counts = new Map<string, { audience: number; seen: number; acknowledged: number }>();
  for (const p of people) {
    for (const head of p.chain) {
      if (!counts.has(head)) counts.set(head, { audience: 0, seen: 0, acknowledged: 0 });
    }
  }
  for (const p of people) {
    const seen = p.seenAt !== null || p.acknowledgedAt !== null ? 1 : 0;
    const acknowledged = p.acknowledgedAt !== null ? 1 : 0;
    // Them included: a manager in the audience counts in their own branch.
    for (const head of counts.has(p.id) ? [p.id, ...p.chain] : p.chain) {
      const c = counts.get(head)!;
      c.audience += 1;
      c.seen += seen;
      c.acknowledged += acknowledged;
    }
  }
  const parentOf = (id: string): string | null => {
    const m = audience.managers.get(id) ?? null;
    return m !== null && counts.has(m) ? m : null;
  };
  const children = new Map<string | null, string[]>();
  for (const id of counts.keys()) {
    const parent = parentOf(id);
    const list = children.get(parent);
    if (list) list.push(id);
    else children.set(parent, [id]);
  }
  const order = byName(audience.names);
  const branches: AnnouncementBranch[] = [];
  const placed = new Set<string>();
  const visit = (id: string, depth: number) => {
    if (placed.has(id)) return;
    placed.add(id);
    const c = counts.get(id)!;
    branches.push({
      id,
      displayName: audience.names.get(id) ?? '',
      managerId: depth === 0 ? null : parentOf(id),
      depth,
      audience: c.audience,
      seen: c.seen,
      acknowledged: c.acknowledged,
      notYet: c.audience - c.acknowledged,
    });
    for (const child of (children.get(id) ?? []).sort(order)) visit(child, depth + 1);
  };
  for (const root of (children.get(null) ?? []).sort(order)) visit(root, 0);
  // A loop in the directory leaves its people without a top: they come last, each at the top.
  for (const id of [...counts.keys()].sort(order)) visit(id, 0);
  return branches;
}

/** Only the people under a branch's head, them included. */
export function inBranch(people: AudiencePerson[], branch: string | undefined): AudiencePerson[] {
  if (branch === undefined) return people;
  return people.filter((p) => p.id === branch || p.chain.includes(branch));
}

/** Only the people of a status. */
export function withStatus(people: AudiencePerson[], status: AnnouncementPeopleStatus): AudiencePerson[] {
  if (status === 'all') return people;
  return people.filter((p) => (p.acknowledgedAt === null) === (status === 'pending'));
}

/** A person's place in the people list: not acknowledged first, then by name, then by id. */
type PeopleKey = [number, string, string];
const keyOf = (p: AudiencePerson): PeopleKey => [p.acknowledgedAt === null ? 0 : 1, p.displayName, p.id];
function compareKeys(a: PeopleKey, b: PeopleKey): number {
  if (a[0] !== b[0]) return a[0] - b[0];
  if (a[1] !== b[1]) return a[1] < b[1] ? -1 : 1;
  if (a[2] !== b[2]) return a[2] < b[2] ? -1 : 1;
  return 0;
}

/** The people list's order: not acknowledged first, then by name. */
export function inListOrder(people: AudiencePerson[]): AudiencePerson[] {
  return [...people].sort((a, b) => compareKeys(keyOf(a), keyOf(b)));
}

/** One page of the people list after the list's cursor (400 `query.cursor` for one it did not give). */
export function pageOfPeople(
  people: AudiencePerson[],
  cursor: string | undefined,
  limit: number,
): { items: AnnouncementPerson[]; nextCursor: string | null } {
  const after = decodeCursor<PeopleKey>(cursor, ['number', 'string', 'string']);
  const ordered = inListOrder(people);
  const start = after ? ordered.findIndex((p) => compareKeys(keyOf(p), after) > 0) : 0;
  const from = start === -1 ? ordered.length : start;
  const kept = ordered.slice(from, from + limit);
  const more = from + limit < ordered.length;
  const last = kept.at(-1);
  return {
    items: kept.map(presentPerson),
    nextCursor: more && last ? encodeCursor(keyOf(last)) : null,
  };
}

/** A person as the people list shows them. */
export function presentPerson(p: AudiencePerson): AnnouncementPerson {
  return {
    id: p.id,
    displayName: p.displayName,
    email: p.email,
    department: p.department,
    managerId: p.managerId,
    managerName: p.managerName,
    seenAt: p.seenAt,
    acknowledgedAt: p.acknowledgedAt,
  };
}

/**
 * The audience as CSV for a spreadsheet: a UTF-8 byte-order mark, then Name, Email, Department,
 * Manager, Seen, Acknowledged (wall-clock times in `timeZone`), in the people list's order.
 */
export function audienceCsv(people: AudiencePerson[], timeZone: string): string {
  const rows = inListOrder(people).map((p) => [
    p.displayName,
    p.email,
    p.department,
    p.managerName,
    timeInZone(p.seenAt ?? p.acknowledgedAt, timeZone),
    timeInZone(p.acknowledgedAt, timeZone),
  ]);
  return UTF8_BOM + toCsv(['Name', 'Email', 'Department', 'Manager', 'Seen', 'Acknowledged'], rows);
}
