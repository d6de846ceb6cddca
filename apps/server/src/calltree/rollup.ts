import type { CallBranch, CallPerson, CallStatus, CallTotals } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import { decodeCursor, encodeCursor } from '../http/cursor.ts';
import { countInto, emptyTotals } from './totals.ts';
import { peopleById } from './treeStore.ts';

/** One targeted person with what the roll-up shows of them. */
export interface RollupPerson extends CallPerson {
  depth: number;
  answeredById: string | null;
  onBehalfReachedVia: string | null;
}

/** Everyone an event targets, with their current answer, manager and phone (two queries). */
export async function loadEventPeople(
  db: Kysely<Database>,
  eventId: string,
): Promise<Map<string, RollupPerson>> {
  const loaded = await targetPeople(db, eventId);
  const people = new Map(loaded.map((p) => [p.id, p]));
  await fillNames(db, loaded, people);
  return people;
}

/** How many people one query reads again at most (`reloadEventPeople`). */
const RELOAD_CHUNK = 500;

/**
 * `previous` (an event's people as loaded before) with the people of `ids` read again: a new map,
 * `previous` is left as it was (it may be in use). Their managers' names come from `previous`.
 */
export async function reloadEventPeople(
  db: Kysely<Database>,
  eventId: string,
  previous: Map<string, RollupPerson>,
  ids: string[],
): Promise<Map<string, RollupPerson>> {
  const changed: RollupPerson[] = [];
  for (let i = 0; i < ids.length; i += RELOAD_CHUNK) {
    changed.push(...(await targetPeople(db, eventId, ids.slice(i, i + RELOAD_CHUNK))));
  }
  const people = new Map(previous);
  for (const p of changed) people.set(p.id, p);
  await fillNames(db, changed, people);
  return people;
}

/** The event's targets (all, or those of `ids`) as roll-up people, their managers' names not yet filled. */
async function targetPeople(db: Kysely<Database>, eventId: string, ids?: string[]): Promise<RollupPerson[]> {
  let query = db
    .selectFrom('call_event_targets as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .leftJoin('call_answers as a', 'a.id', 't.answer_id')
    .select([
      't.user_id',
      't.manager_id',
      't.depth',
      't.status',
      't.option_id',
      't.answered_at',
      't.on_behalf',
      't.escalation_level',
      'u.display_name',
      'u.email',
      'u.department',
      'u.phone',
      'a.note',
      'a.location',
      'a.answered_by',
      'a.reached_via',
    ])
    .where('t.event_id', '=', eventId);
  if (ids) {
    if (ids.length === 0) return [];
    query = query.where('t.user_id', 'in', ids);
  }
  const rows = await query.execute();
  return rows.map((r) => ({
    id: r.user_id,
    displayName: r.display_name,
    email: r.email,
    department: r.department,
    phone: r.phone,
    managerId: r.manager_id,
    managerName: null,
    managerPhone: null,
    status: r.status,
    optionId: r.option_id,
    note: r.note,
    location: r.location,
    answeredAt: r.answered_at,
    answeredById: r.answered_by,
    answeredByName: null,
    onBehalf: r.on_behalf === 1,
    onBehalfReachedVia: r.reached_via,
    escalations: r.escalation_level,
    depth: r.depth,
  }));
}

/** Fills in the names (and phone) of each person's manager and answerer, from `all` or the directory. */
async function fillNames(
  db: Kysely<Database>,
  people: RollupPerson[],
  all: Map<string, RollupPerson>,
): Promise<void> {
  // Managers and answerers are in the snapshot; the top of a branch's own manager may not be.
  const missing = new Set<string>();
  for (const p of people) {
    if (p.managerId && !all.has(p.managerId)) missing.add(p.managerId);
    if (p.answeredById && !all.has(p.answeredById)) missing.add(p.answeredById);
  }
  const others = await peopleById(db, missing);
  for (const p of people) {
    const manager = p.managerId ? (all.get(p.managerId) ?? others.get(p.managerId)) : undefined;
    p.managerName = manager ? ('displayName' in manager ? manager.displayName : manager.display_name) : null;
    p.managerPhone = manager?.phone ?? null;
    if (p.answeredById) {
      const by = all.get(p.answeredById) ?? others.get(p.answeredById);
      p.answeredByName = by ? ('displayName' in by ? by.displayName : by.display_name) : null;
    }
  }
}

/** Counts over people, by status and by option. */
export function totalsOf(people: RollupPerson[]): { totals: CallTotals; byOption: Record<string, number> } {
  const totals = emptyTotals();
  const byOption: Record<string, number> = {};
  for (const p of people) {
    countInto(totals, p.status);
    if (p.optionId) byOption[p.optionId] = (byOption[p.optionId] ?? 0) + 1;
  }
  return { totals, byOption };
}

/** Each person with reports in scope, with the counts of their whole branch (filtered people only). */
export function branchesOf(scope: RollupPerson[], counted: RollupPerson[]): CallBranch[] {
  const inScope = new Map(scope.map((p) => [p.id, p]));
  const managers = new Set<string>();
  for (const p of scope) if (p.managerId && inScope.has(p.managerId)) managers.add(p.managerId);
  const totals = new Map<string, CallTotals>([...managers].map((id) => [id, emptyTotals()]));
  for (const p of counted) {
    // Count the person in their own branch (if they lead one) and in every branch above them. A
    // snapshot is laid out top down (a manager's depth is one less than their report's): walking
    // only upwards, a loop in bad data cannot count anyone twice.
    let at: RollupPerson | undefined = p;
    while (at) {
      const t = totals.get(at.id);
      if (t) countInto(t, p.status);
      const manager: RollupPerson | undefined = at.managerId ? inScope.get(at.managerId) : undefined;
      at = manager && manager.depth < at.depth ? manager : undefined;
    }
  }
  const subBranches = new Map<string, number>();
  for (const id of managers) {
    const above = inScope.get(id)!.managerId;
    if (above && managers.has(above)) subBranches.set(above, (subBranches.get(above) ?? 0) + 1);
  }
  return [...managers]
    .map((id) => {
      const m = inScope.get(id)!;
      return {
        id,
        displayName: m.displayName,
        managerId: m.managerId,
        depth: m.depth,
        subBranches: subBranches.get(id) ?? 0,
        totals: totals.get(id)!,
      };
    })
    .sort((a, b) => a.depth - b.depth || a.displayName.localeCompare(b.displayName));
}

/**
 * Branches (as `branchesOf` orders them) by the branch directly above them: `null` holds the top of
 * the scope, whose manager leads no branch in it.
 */
export function branchesByParent(branches: CallBranch[]): Map<string | null, CallBranch[]> {
  const ids = new Set(branches.map((b) => b.id));
  const byParent = new Map<string | null, CallBranch[]>();
  for (const b of branches) {
    const parent = b.managerId && ids.has(b.managerId) ? b.managerId : null;
    const siblings = byParent.get(parent);
    if (siblings) siblings.push(b);
    else byParent.set(parent, [b]);
  }
  return byParent;
}

/** The top branches and the level directly under them: what a roll-up sends before anyone opens a branch. */
export function topBranches(byParent: Map<string | null, CallBranch[]>): CallBranch[] {
  const top = byParent.get(null) ?? [];
  return [...top, ...top.flatMap((b) => byParent.get(b.id) ?? [])];
}

const RANK: Record<CallStatus, number> = { need_help: 0, no_answer: 1, safe: 2 };

type CursorKey = [number, string, string];

function keyOf(p: RollupPerson): CursorKey {
  return [RANK[p.status], p.displayName, p.id];
}

function compareKeys(a: CursorKey, b: CursorKey): number {
  return a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0) || (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0);
}

/** People in the roll-up's order: those needing help first, then those without an answer, then the safe; by name. */
export function attentionOrder(people: RollupPerson[]): RollupPerson[] {
  return [...people].sort((a, b) => compareKeys(keyOf(a), keyOf(b)));
}

/**
 * What of an event's people stays the same while they answer: the branches (who leads whom, in
 * `branchesOf`'s order), the branches each person counts in (their own and each above), and everyone
 * by name. Computed once per whole read of the people and carried along the loads patched from it
 * (`carryShape`): a snapshot's managers never change, and a name changed in the directory takes its
 * place in the order at the next whole read. With it, a roll-up of the whole event counts its
 * thousand branches and orders its 10,000 people in one pass each, instead of walking every chain
 * and sorting everyone four times a second in the crisis minute.
 */
export interface EventShape {
  /** Everyone's id, by name then id. */
  byName: string[];
  /** The event's branches without their counts, in `branchesOf`'s order. */
  branches: Omit<CallBranch, 'totals'>[];
  /** By person: the indexes in `branches` of the branches they count in. */
  countsIn: Map<string, number[]>;
}

const shapes = new WeakMap<Map<string, RollupPerson>, EventShape>();

/** The shape of an event's people as loaded (`all`: the whole snapshot), computed on first use. */
export function shapeOf(all: Map<string, RollupPerson>): EventShape {
  let shape = shapes.get(all);
  if (!shape) {
    shape = computeShape(all);
    shapes.set(all, shape);
  }
  return shape;
}

/** Gives `to`, the people of `from` with newer answers read again, the shape of `from`. */
export function carryShape(from: Map<string, RollupPerson>, to: Map<string, RollupPerson>): void {
  const shape = shapes.get(from);
  if (shape) shapes.set(to, shape);
}

function computeShape(all: Map<string, RollupPerson>): EventShape {
  const people = [...all.values()];
  const branches = branchesOf(people, []).map((b) => ({
    id: b.id,
    displayName: b.displayName,
    managerId: b.managerId,
    depth: b.depth,
    subBranches: b.subBranches,
  }));
  const index = new Map(branches.map((b, i) => [b.id, i]));
  const countsIn = new Map<string, number[]>();
  for (const p of people) {
    // As branchesOf counts: their own branch and each above, walking only upwards.
    const into: number[] = [];
    let at: RollupPerson | undefined = p;
    while (at) {
      const i = index.get(at.id);
      if (i !== undefined) into.push(i);
      const manager: RollupPerson | undefined = at.managerId ? all.get(at.managerId) : undefined;
      at = manager && manager.depth < at.depth ? manager : undefined;
    }
    countsIn.set(p.id, into);
  }
  const byName = people
    .sort((a, b) => compareKeys([0, a.displayName, a.id], [0, b.displayName, b.id]))
    .map((p) => p.id);
  return { byName, branches, countsIn };
}

/** `branchesOf(every person of the event, counted)` from the event's shape: the same, in one pass. */
export function branchesFromShape(shape: EventShape, counted: RollupPerson[]): CallBranch[] {
  const totals = shape.branches.map(() => emptyTotals());
  for (const p of counted) {
    for (const i of shape.countsIn.get(p.id) ?? []) countInto(totals[i]!, p.status);
  }
  return shape.branches.map((b, i) => ({ ...b, totals: totals[i]! }));
}

/** `attentionOrder` of the people `include` accepts, from the event's shape: by status, each by name. */
export function attentionOrderFromShape(
  shape: EventShape,
  all: Map<string, RollupPerson>,
  include: (person: RollupPerson) => boolean,
): RollupPerson[] {
  const byRank: [RollupPerson[], RollupPerson[], RollupPerson[]] = [[], [], []];
  for (const id of shape.byName) {
    const p = all.get(id);
    if (p && include(p)) byRank[RANK[p.status] as 0 | 1 | 2].push(p);
  }
  return byRank.flat();
}

/** One page of people in attention order after `cursor` (read and made by `http/cursor.ts`). */
export function pageInAttentionOrder(
  ordered: RollupPerson[],
  cursor: string | undefined,
  limit: number,
): { items: RollupPerson[]; nextCursor: string | null } {
  let start = 0;
  if (cursor) {
    const after = decodeCursor<CursorKey>(cursor, ['number', 'string', 'string'])!;
    start = ordered.findIndex((p) => compareKeys(keyOf(p), after) > 0);
    if (start < 0) start = ordered.length;
  }
  const items = ordered.slice(start, start + limit);
  const last = items.at(-1);
  const more = start + limit < ordered.length;
  return {
    items,
    nextCursor: more && last ? encodeCursor(keyOf(last)) : null,
  };
}

/** Seconds from `startedAt` until `share` of `count` people had answered, or null if not yet. */
export function secondsToShare(
  firstAnswers: string[],
  count: number,
  share: number,
  startedAt: string,
): number | null {
  if (count === 0) return null;
  const needed = Math.ceil(share * count);
  const sorted = [...firstAnswers].sort();
  const at = sorted[needed - 1];
  if (!at) return null;
  return Math.max(0, (Date.parse(at) - Date.parse(startedAt)) / 1000);
}
