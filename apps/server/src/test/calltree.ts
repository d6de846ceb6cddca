import type { UserRow } from '../db/schema.ts';
import { newId } from '../ids.ts';
import { buildUser } from './factories.ts';
import type { TestServer } from './server.ts';
import { acceptCurrentTerms, sessionToken } from './session.ts';

/** The people of a small organisation, four levels deep, by short name. */
export type Org = Record<'ceo' | 'a1' | 'a2' | 'b1' | 'b2' | 'b3' | 'c1' | 'c2' | 'c3', UserRow>;

/**
 * Builds an organisation in the directory's shape (users with `manager_subject`), four levels deep:
 * ceo → a1, a2; a1 → b1, b2; a2 → b3; b1 → c1, c2; b3 → c3. Each call makes new people with their own
 * subjects, so several organisations can live in one test database.
 */
export async function buildOrg(server: TestServer): Promise<Org> {
  const db = server.ctx.db.kysely;
  const tag = newId().slice(-8);
  const chain: [keyof Org, keyof Org | null, string][] = [
    ['ceo', null, 'Executive'],
    ['a1', 'ceo', 'Operations'],
    ['a2', 'ceo', 'Finance'],
    ['b1', 'a1', 'Operations'],
    ['b2', 'a1', 'Operations'],
    ['b3', 'a2', 'Finance'],
    ['c1', 'b1', 'Operations'],
    ['c2', 'b1', 'Operations'],
    ['c3', 'b3', 'Finance'],
  ];
  const org = {} as Org;
  for (const [name, manager, department] of chain) {
    const person = await buildUser(db, {
      subject: `${name}-${tag}`,
      manager_subject: manager ? `${manager}-${tag}` : null,
      display_name: `${name.toUpperCase()} ${tag}`,
      email: `${name}-${tag}@btalk.test`,
      department,
      phone: `+66-2-000-${name}`,
    });
    org[name] = await acceptCurrentTerms(db, person);
  }
  return org;
}

/** Authorization headers for a person built with buildUser. */
export async function headersFor(server: TestServer, user: UserRow): Promise<{ authorization: string }> {
  return { authorization: `Bearer ${await sessionToken(server, user.id)}` };
}

/**
 * A fresh organisation (`buildOrg`), a directory tree over it and a running drill on the whole tree
 * that escalates after 15 minutes, started by `adminHeaders`.
 */
export async function runningEvent(
  server: TestServer,
  adminHeaders: { authorization: string },
  title = 'Gas leak',
): Promise<{ org: Org; eventId: string; startedAt: number }> {
  const org = await buildOrg(server);
  const tree = await server.request({
    method: 'POST',
    url: '/api/calltree/trees',
    headers: adminHeaders,
    payload: { name: title, rootUserId: org.ceo.id },
  });
  const event = await server.request({
    method: 'POST',
    url: `/api/calltree/trees/${tree.json().data.tree.id}/events`,
    headers: adminHeaders,
    payload: { title, message: 'Leave building C.', kind: 'drill', escalationDelayMinutes: 15 },
  });
  const data = event.json().data;
  return { org, eventId: data.id, startedAt: Date.parse(data.startedAt) };
}
