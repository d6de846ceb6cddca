import type { UnplacedReason } from '@btalk/contracts';

/** A person as the directory describes them: who they are and the subject of their manager. */
export interface DirectoryEntry {
  id: string;
  issuer: string;
  subject: string;
  managerSubject: string | null;
}

/** Where the directory puts people: each placed person's manager (null at the top), and who cannot be placed. */
export interface Placement {
  placed: Map<string, string | null>;
  unplaced: { id: string; reason: UnplacedReason }[];
}

const key = (issuer: string, subject: string) => `${issuer}\n${subject}`;

/**
 * Places people by the directory's manager chain. With `rootId`, only that person's branch (everyone
 * whose chain reaches them); nobody else is "unplaced", they are simply outside the branch. Without it,
 * the whole directory: people without a manager are at the top, and people whose chain loops or
 * leads to a manager the directory does not have (or who is disabled) are reported, not dropped.
 */
export function placeFromDirectory(people: DirectoryEntry[], rootId: string | null): Placement {
  const bySubject = new Map(people.map((p) => [key(p.issuer, p.subject), p]));
  const managerOf = new Map<string, string | null | undefined>();
  for (const p of people) {
    if (!p.managerSubject) managerOf.set(p.id, null);
    // undefined: the directory names a manager we do not have.
    else managerOf.set(p.id, bySubject.get(key(p.issuer, p.managerSubject))?.id);
  }
  const children = new Map<string, string[]>();
  for (const [id, manager] of managerOf) {
    if (!manager || manager === id) continue;
    const list = children.get(manager) ?? [];
    list.push(id);
    children.set(manager, list);
  }
  const placed = new Map<string, string | null>();
  const tops = rootId ? [rootId] : people.filter((p) => managerOf.get(p.id) === null).map((p) => p.id);
  const queue = [...tops];
  for (const top of tops) placed.set(top, null);
  while (queue.length > 0) {
    const id = queue.shift()!;
    for (const child of children.get(id) ?? []) {
      if (placed.has(child)) continue;
      placed.set(child, id);
      queue.push(child);
    }
  }
  if (rootId) return { placed, unplaced: [] };

  const unplaced: Placement['unplaced'] = [];
  for (const p of people) {
    if (placed.has(p.id)) continue;
    const manager = managerOf.get(p.id);
    if (manager === undefined) {
      unplaced.push({ id: p.id, reason: 'manager_outside_tree' });
      continue;
    }
    // Walk up: coming back to the person means they are on a loop; anything else means a manager
    // above them is unplaced (a loop above, or a manager the directory does not have).
    const seen = new Set<string>([p.id]);
    let at: string | null | undefined = manager;
    let reason: UnplacedReason = 'under_unplaced_manager';
    while (at) {
      if (at === p.id) {
        reason = 'manager_loop';
        break;
      }
      if (seen.has(at)) break;
      seen.add(at);
      at = managerOf.get(at);
    }
    unplaced.push({ id: p.id, reason });
  }
  return { placed, unplaced };
}

/** Each manager's direct reports (key null: the people at the top). */
export function reportsOf(members: Map<string, string | null>): Map<string | null, string[]> {
  const children = new Map<string | null, string[]>();
  for (const [id, manager] of members) {
    const list = children.get(manager) ?? [];
    list.push(id);
    children.set(manager, list);
  }
  return children;
}

/** A person and everyone under them, top first, with their depth below `rootId`. */
export function branchOf(
  members: Map<string, string | null>,
  rootId: string,
): { id: string; depth: number }[] {
  const children = reportsOf(members);
  const out = [{ id: rootId, depth: 0 }];
  for (let i = 0; i < out.length; i++) {
    const { id, depth } = out[i]!;
    for (const child of children.get(id) ?? []) out.push({ id: child, depth: depth + 1 });
  }
  return out;
}

/** Everyone of a tree, top first, with their depth (0 at the top). */
export function wholeTree(members: Map<string, string | null>): { id: string; depth: number }[] {
  const children = reportsOf(members);
  const out = (children.get(null) ?? []).map((id) => ({ id, depth: 0 }));
  for (let i = 0; i < out.length; i++) {
    const { id, depth } = out[i]!;
    for (const child of children.get(id) ?? []) out.push({ id: child, depth: depth + 1 });
  }
  return out;
}

/** Whether putting `personId` under `managerId` would make a loop (the manager is the person or under them). */
export function wouldLoop(members: Map<string, string | null>, personId: string, managerId: string): boolean {
  const seen = new Set<string>();
  let at: string | null | undefined = managerId;
  while (at) {
    if (at === personId) return true;
    if (seen.has(at)) return true;
    seen.add(at);
    at = members.get(at);
  }
  return false;
}
