import type { CreateCallTreeRequest, UnplacedReason } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import { insertInChunks } from '../calltree/bulk.ts';
import { type ImportPreview, previewTreeCsv } from '../calltree/csv.ts';
import { placeFromDirectory, wouldLoop } from '../calltree/hierarchy.ts';
import { loadDirectory, loadImportablePeople, loadMembers, logTreeChange } from '../calltree/treeStore.ts';
import type { Database } from '../db/index.ts';
import type { CallTreeRow, UserRow } from '../db/schema.ts';
import { AppError, invalid } from '../http/errors.ts';
import { newId, now } from '../ids.ts';
import { recordAccessChanged } from './accessEvents.ts';

/** People the directory could not place, by id. */
export type Unplaced = { id: string; reason: UnplacedReason }[];

async function writeMembers(
  trx: Kysely<Database>,
  treeId: string,
  members: Map<string, string | null>,
  at: string,
): Promise<void> {
  await insertInChunks(
    trx,
    'call_tree_members',
    [...members].map(([userId, managerId]) => ({
      tree_id: treeId,
      user_id: userId,
      manager_id: managerId,
      added_at: at,
    })),
  );
}

async function touch(trx: Kysely<Database>, treeId: string, at: string): Promise<void> {
  await trx.updateTable('call_trees').set({ updated_at: at }).where('id', '=', treeId).execute();
}

/** Creates a tree: from the directory's manager chain (the whole directory or one branch), or empty. */
export async function callTreeCreator(
  trx: Kysely<Database>,
  actor: UserRow,
  input: CreateCallTreeRequest,
): Promise<{ treeId: string; unplaced: Unplaced }> {
  const at = now();
  const rootUserId = input.source === 'directory' ? (input.rootUserId ?? null) : null;
  if (input.source === 'empty' && input.rootUserId) {
    throw invalid(
      'body.rootUserId',
      'only a directory tree has a root person; leave it out for an empty tree',
    );
  }
  if (rootUserId) {
    const root = await trx
      .selectFrom('users')
      .select('id')
      .where('id', '=', rootUserId)
      .where('disabled', '=', 0)
      .executeTakeFirst();
    if (!root)
      throw invalid('body.rootUserId', 'no active person has this id; pick one from the people search');
  }
  const treeId = newId();
  await trx
    .insertInto('call_trees')
    .values({
      id: treeId,
      name: input.name,
      source: input.source,
      root_user_id: rootUserId,
      created_by: actor.id,
      created_at: at,
      updated_at: at,
    })
    .execute();
  let unplaced: Unplaced = [];
  let count = 0;
  if (input.source === 'directory') {
    const placement = placeFromDirectory(await loadDirectory(trx), rootUserId);
    await writeMembers(trx, treeId, placement.placed, at);
    unplaced = placement.unplaced;
    count = placement.placed.size;
  }
  await logTreeChange(
    trx,
    {
      treeId,
      actorId: actor.id,
      action: 'built',
      detail: { source: input.source, rootUserId, members: count, unplaced: unplaced.length },
    },
    at,
  );
  return { treeId, unplaced };
}

/** What a refresh from the directory changes, by person id. */
export interface RefreshOutcome {
  applied: boolean;
  joined: string[];
  left: string[];
  moved: { id: string; from: string | null; to: string | null }[];
  unplaced: Unplaced;
}

/**
 * Compares a directory tree with the directory's manager chain now and, with `apply`, makes the tree
 * match: people who joined are added, people who left are removed (their reports move up), people
 * who moved get their new manager. People who cannot be placed stay where they are and are reported.
 */
export async function callTreeRefresher(
  trx: Kysely<Database>,
  actor: UserRow,
  tree: CallTreeRow,
  apply: boolean,
): Promise<RefreshOutcome> {
  if (tree.source !== 'directory') {
    throw new AppError(
      'conflict',
      `This tree was ${tree.source === 'csv' ? 'imported from CSV' : 'built by hand'}, so it does not follow the directory. Import a new CSV or edit it instead.`,
    );
  }
  const current = await loadMembers(trx, tree.id);
  const placement = placeFromDirectory(await loadDirectory(trx), tree.root_user_id);
  const unplacedIds = new Set(placement.unplaced.map((u) => u.id));
  const joined = [...placement.placed.keys()].filter((id) => !current.has(id));
  const left = [...current.keys()].filter((id) => !placement.placed.has(id) && !unplacedIds.has(id));
  const moved = [...placement.placed]
    .filter(([id, manager]) => current.has(id) && current.get(id) !== manager)
    .map(([id, to]) => ({ id, from: current.get(id) ?? null, to }));
  const outcome = { applied: apply, joined, left, moved, unplaced: placement.unplaced };
  if (!apply) return outcome;

  const at = now();
  const next = new Map(current);
  for (const id of left) removeKeepingReports(next, id);
  for (const { id, to } of moved) next.set(id, to);
  for (const id of joined) next.set(id, placement.placed.get(id) ?? null);
  await replaceMembers(trx, tree.id, next, at);
  await logTreeChange(
    trx,
    {
      treeId: tree.id,
      actorId: actor.id,
      action: 'refreshed',
      detail: { joined, left, moved, unplaced: placement.unplaced },
    },
    at,
  );
  await touch(trx, tree.id, at);
  return outcome;
}

/** Takes a person out of a member map, moving their reports up to the person's manager. */
function removeKeepingReports(members: Map<string, string | null>, id: string): void {
  const up = members.get(id) ?? null;
  for (const [other, manager] of members) if (manager === id) members.set(other, up);
  members.delete(id);
}

async function replaceMembers(
  trx: Kysely<Database>,
  treeId: string,
  members: Map<string, string | null>,
  at: string,
): Promise<void> {
  await trx.deleteFrom('call_tree_members').where('tree_id', '=', treeId).execute();
  await writeMembers(trx, treeId, members, at);
}

async function requireMemberManager(
  members: Map<string, string | null>,
  managerId: string | null,
): Promise<void> {
  if (managerId && !members.has(managerId)) {
    throw invalid('body.managerId', 'the manager must be in this tree; add them first or pick another');
  }
}

/** Adds a person (found with the people search) under a manager of the tree, or at the top. */
export async function callTreeMemberAdder(
  trx: Kysely<Database>,
  actor: UserRow,
  tree: CallTreeRow,
  input: { userId: string; managerId: string | null },
): Promise<void> {
  const person = await trx
    .selectFrom('users')
    .select(['id', 'disabled'])
    .where('id', '=', input.userId)
    .executeTakeFirst();
  if (!person || person.disabled) {
    throw invalid('body.userId', 'no active person has this id; pick one from the people search');
  }
  const members = await loadMembers(trx, tree.id);
  if (members.has(input.userId)) {
    throw new AppError('conflict', 'This person is already in the tree; move them instead.');
  }
  await requireMemberManager(members, input.managerId);
  const at = now();
  await trx
    .insertInto('call_tree_members')
    .values({ tree_id: tree.id, user_id: input.userId, manager_id: input.managerId, added_at: at })
    .execute();
  await logTreeChange(
    trx,
    {
      treeId: tree.id,
      actorId: actor.id,
      action: 'added',
      userId: input.userId,
      detail: { managerId: input.managerId },
    },
    at,
  );
  await touch(trx, tree.id, at);
}

/** Moves a person (with everyone under them) under another manager of the tree, or to the top. */
export async function callTreeMemberMover(
  trx: Kysely<Database>,
  actor: UserRow,
  tree: CallTreeRow,
  userId: string,
  managerId: string | null,
): Promise<void> {
  const members = await loadMembers(trx, tree.id);
  if (!members.has(userId)) throw new AppError('notFound', 'This person is not in the tree.');
  await requireMemberManager(members, managerId);
  if (managerId && wouldLoop(members, userId, managerId)) {
    throw invalid(
      'body.managerId',
      'this manager is the person or someone under them; pick someone outside their branch',
    );
  }
  const from = members.get(userId) ?? null;
  const at = now();
  await trx
    .updateTable('call_tree_members')
    .set({ manager_id: managerId })
    .where('tree_id', '=', tree.id)
    .where('user_id', '=', userId)
    .execute();
  await logTreeChange(
    trx,
    { treeId: tree.id, actorId: actor.id, action: 'moved', userId, detail: { from, to: managerId } },
    at,
  );
  await touch(trx, tree.id, at);
}

/** Removes a person from the tree; their reports move up to the person's manager. */
export async function callTreeMemberRemover(
  trx: Kysely<Database>,
  actor: UserRow,
  tree: CallTreeRow,
  userId: string,
): Promise<void> {
  const members = await loadMembers(trx, tree.id);
  if (!members.has(userId)) throw new AppError('notFound', 'This person is not in the tree.');
  const up = members.get(userId) ?? null;
  const at = now();
  await trx
    .updateTable('call_tree_members')
    .set({ manager_id: up })
    .where('tree_id', '=', tree.id)
    .where('manager_id', '=', userId)
    .execute();
  await trx
    .deleteFrom('call_tree_members')
    .where('tree_id', '=', tree.id)
    .where('user_id', '=', userId)
    .execute();
  await logTreeChange(
    trx,
    { treeId: tree.id, actorId: actor.id, action: 'removed', userId, detail: { managerId: up } },
    at,
  );
  await touch(trx, tree.id, at);
}

/** Replaces a tree's people with imported ones (rows already checked), making it a CSV tree. */
export async function callTreeImporter(
  trx: Kysely<Database>,
  actor: UserRow,
  tree: CallTreeRow,
  members: Map<string, string | null>,
): Promise<void> {
  const at = now();
  await replaceMembers(trx, tree.id, members, at);
  await trx
    .updateTable('call_trees')
    .set({ source: 'csv', root_user_id: null, updated_at: at })
    .where('id', '=', tree.id)
    .execute();
  await logTreeChange(
    trx,
    { treeId: tree.id, actorId: actor.id, action: 'imported', detail: { members: members.size } },
    at,
  );
}

/** Grants (or revokes) a person the event manager role of a tree. */
export async function callTreeRoleSetter(
  trx: Kysely<Database>,
  actor: UserRow,
  tree: CallTreeRow,
  userId: string,
  grant: boolean,
): Promise<void> {
  const person = await trx.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
  if (!person) throw invalid('params.userId', 'no person has this id; pick one from the people search');
  const at = now();
  if (grant) {
    const added = await trx
      .insertInto('call_tree_managers')
      .values({ tree_id: tree.id, user_id: userId, granted_by: actor.id, created_at: at })
      .onConflict((oc) => oc.columns(['tree_id', 'user_id']).doNothing())
      .executeTakeFirst();
    if (Number(added.numInsertedOrUpdatedRows ?? 0) === 0) return;
  } else {
    const removed = await trx
      .deleteFrom('call_tree_managers')
      .where('tree_id', '=', tree.id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (Number(removed.numDeletedRows) === 0) return;
  }
  await logTreeChange(
    trx,
    { treeId: tree.id, actorId: actor.id, action: grant ? 'role_granted' : 'role_revoked', userId },
    at,
  );
  // The role decides which events the person sees: their open sockets re-check their rooms.
  await recordAccessChanged(trx, userId, `event manager of ${tree.name}`, actor.id);
}

/**
 * Checks a tree CSV against the people BTalk knows and, with `apply`, replaces the tree's people
 * with it; applying while any row has an error is a 400 naming the rows, and nothing changes.
 */
export async function callTreeCsvImporter(
  trx: Kysely<Database>,
  actor: UserRow,
  tree: CallTreeRow,
  csv: string,
  apply: boolean,
): Promise<ImportPreview> {
  const result = previewTreeCsv(csv, await loadImportablePeople(trx));
  if (!apply) return result;
  if (result.errorCount > 0) {
    const details = result.rows
      .filter((r) => r.error)
      .slice(0, 50)
      .map((r) => ({ field: 'body.csv', reason: `line ${r.line}: ${r.error}` }));
    throw new AppError(
      'validation',
      `${result.errorCount} row(s) have errors; fix them (see the preview) and import again. Nothing was changed.`,
      details,
    );
  }
  await callTreeImporter(trx, actor, tree, result.members);
  return result;
}
