import type { Kysely, Selectable } from 'kysely';
import { audit } from '../audit/audit.ts';
import type { Database } from '../db/index.ts';
import type { CallTreeChangesTable, CallTreeRow } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { newId } from '../ids.ts';
import type { ImportablePerson } from './csv.ts';
import type { DirectoryEntry } from './hierarchy.ts';

/** Loads a tree or answers 404. */
export async function loadTree(db: Kysely<Database>, treeId: string): Promise<CallTreeRow> {
  const tree = await db.selectFrom('call_trees').selectAll().where('id', '=', treeId).executeTakeFirst();
  if (!tree) throw new AppError('notFound', 'No such call tree, or you are not in it. Check the link.');
  return tree;
}

/** A tree's people: each member's manager in the tree (null at the top). */
export async function loadMembers(db: Kysely<Database>, treeId: string): Promise<Map<string, string | null>> {
  const rows = await db
    .selectFrom('call_tree_members')
    .select(['user_id', 'manager_id'])
    .where('tree_id', '=', treeId)
    .execute();
  return new Map(rows.map((r) => [r.user_id, r.manager_id]));
}

/** Everyone active in the directory (the users table the sign-in work keeps in sync), with their manager's subject. */
export async function loadDirectory(db: Kysely<Database>): Promise<DirectoryEntry[]> {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'issuer', 'subject', 'manager_subject'])
    .where('disabled', '=', 0)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    issuer: r.issuer,
    subject: r.subject,
    managerSubject: r.manager_subject,
  }));
}

/**
 * Records one edit in the tree's history (what the tree screen shows) and in the organisation's
 * audit log (where every audited change of BTalk is found).
 */
export async function logTreeChange(
  trx: Kysely<Database>,
  change: { treeId: string; actorId: string | null; action: string; userId?: string | null; detail?: object },
  at: string,
): Promise<void> {
  await trx
    .insertInto('call_tree_changes')
    .values({
      id: newId(),
      tree_id: change.treeId,
      actor_id: change.actorId,
      action: change.action,
      user_id: change.userId ?? null,
      detail: JSON.stringify(change.detail ?? {}),
      created_at: at,
    })
    .execute();
  await audit(trx, {
    actorId: change.actorId,
    action: `calltree.${change.action}`,
    target: `calltree:${change.treeId}`,
    details: { ...(change.userId ? { userId: change.userId } : {}), ...(change.detail ?? {}) },
    client: null,
  });
}

/** Names, e-mail addresses, departments and phones of people, by id. */
export async function peopleById(
  db: Kysely<Database>,
  ids: Iterable<string>,
): Promise<
  Map<
    string,
    {
      id: string;
      display_name: string;
      email: string;
      department: string | null;
      job_title: string | null;
      phone: string | null;
    }
  >
> {
  const list = [...new Set(ids)];
  const out = new Map();
  for (let i = 0; i < list.length; i += 5000) {
    const rows = await db
      .selectFrom('users')
      .select(['id', 'display_name', 'email', 'department', 'job_title', 'phone'])
      .where('id', 'in', list.slice(i, i + 5000))
      .execute();
    for (const r of rows) out.set(r.id, r);
  }
  return out;
}

/** How many people each tree has and how many of its events run, by tree id (two queries). */
export async function treeCounts(
  db: Kysely<Database>,
  treeIds: string[],
): Promise<{ members: Map<string, number>; running: Map<string, number> }> {
  if (treeIds.length === 0) return { members: new Map(), running: new Map() };
  const [members, running] = await Promise.all([
    db
      .selectFrom('call_tree_members')
      .select(['tree_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('tree_id', 'in', treeIds)
      .groupBy('tree_id')
      .execute(),
    db
      .selectFrom('call_events')
      .select(['tree_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('tree_id', 'in', treeIds)
      .where('status', '=', 'running')
      .groupBy('tree_id')
      .execute(),
  ]);
  return {
    members: new Map(members.map((c) => [c.tree_id, Number(c.n)])),
    running: new Map(running.map((c) => [c.tree_id, Number(c.n)])),
  };
}

/** The people holding a tree's event manager role, by name. */
export function loadEventManagers(
  db: Kysely<Database>,
  treeId: string,
): Promise<{ id: string; display_name: string; email: string }[]> {
  return db
    .selectFrom('call_tree_managers as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.display_name', 'u.email'])
    .where('m.tree_id', '=', treeId)
    .orderBy('u.display_name')
    .execute();
}

/** A tree's latest edits (at most 500), newest first. */
export function loadTreeChanges(
  db: Kysely<Database>,
  treeId: string,
): Promise<Selectable<CallTreeChangesTable>[]> {
  return db
    .selectFrom('call_tree_changes')
    .selectAll()
    .where('tree_id', '=', treeId)
    .orderBy('id', 'desc')
    .limit(500)
    .execute();
}

/** Everyone a CSV import can match an e-mail address to (disabled people too, to name them). */
export async function loadImportablePeople(db: Kysely<Database>): Promise<ImportablePerson[]> {
  const people = await db.selectFrom('users').select(['id', 'email', 'display_name', 'disabled']).execute();
  return people.map((p) => ({
    id: p.id,
    email: p.email,
    displayName: p.display_name,
    disabled: !!p.disabled,
  }));
}
