import type { CallTreeNode } from '@btalk/contracts';

/** How many people each member's branch holds (the member included), from the tree's manager links. */
export function branchSizes(members: CallTreeNode[]): Map<string, number> {
  const sizes = new Map<string, number>(members.map((m) => [m.id, 0]));
  const byId = new Map(members.map((m) => [m.id, m]));
  for (const m of members) {
    let at: string | null = m.id;
    const seen = new Set<string>();
    while (at && byId.has(at) && !seen.has(at)) {
      seen.add(at);
      sizes.set(at, (sizes.get(at) ?? 0) + 1);
      at = byId.get(at)!.managerId;
    }
  }
  return sizes;
}

/** The members in tree order with their depth: each manager followed by the people under them. */
export function inTreeOrder(members: CallTreeNode[]): Array<CallTreeNode & { depth: number }> {
  const ids = new Set(members.map((m) => m.id));
  const children = new Map<string | null, CallTreeNode[]>();
  for (const m of members) {
    const parent = m.managerId && ids.has(m.managerId) ? m.managerId : null;
    children.set(parent, [...(children.get(parent) ?? []), m]);
  }
  const out: Array<CallTreeNode & { depth: number }> = [];
  const visit = (parent: string | null, depth: number) => {
    for (const m of (children.get(parent) ?? []).sort((a, b) => a.displayName.localeCompare(b.displayName))) {
      out.push({ ...m, depth });
      visit(m.id, depth + 1);
    }
  };
  visit(null, 0);
  return out;
}
