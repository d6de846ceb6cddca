import type {
  CallAnswer,
  CallBranch,
  CallEventAbilities,
  CallEventDetail,
  CallEventOption,
  CallEventReport,
  CallEventSummary,
  CallPerson,
  CallPersonHistory,
  CallStatus,
  CallTotals,
  CallTreeAbilities,
  CallTreeChange,
  CallTreeDetail,
  CallTreeSummary,
  RefreshCallTreeResponse,
  UnplacedPerson,
} from '@btalk/contracts';
import type { Kysely, Selectable } from 'kysely';
import { timeInZone, toCsv, UTF8_BOM } from '../calltree/csv.ts';
import type { EventReportFacts } from '../calltree/eventStore.ts';
import { wholeTree } from '../calltree/hierarchy.ts';
import {
  attentionOrder,
  attentionOrderFromShape,
  branchesByParent,
  branchesFromShape,
  branchesOf,
  pageInAttentionOrder,
  type RollupPerson,
  secondsToShare,
  shapeOf,
  topBranches,
  totalsOf,
} from '../calltree/rollup.ts';
import { eventTotals } from '../calltree/totals.ts';
import { loadEventManagers, loadMembers, peopleById, treeCounts } from '../calltree/treeStore.ts';
import type { RefreshOutcome, Unplaced } from '../commands/callTreeEditor.ts';
import type { Database } from '../db/index.ts';
import type {
  CallAnswerRow,
  CallEventRow,
  CallTreeChangesTable,
  CallTreeRow,
  UserRow,
} from '../db/schema.ts';
import { eventAbilities, eventAccess, treeAbilities, treeAccess } from '../policies/calltree.ts';

/** A tree as lists show it. */
export function presentTreeSummary(
  tree: CallTreeRow,
  memberCount: number,
  runningEvents: number,
  abilities: CallTreeAbilities,
): CallTreeSummary {
  return {
    id: tree.id,
    name: tree.name,
    source: tree.source,
    rootUserId: tree.root_user_id,
    memberCount,
    runningEvents,
    createdAt: tree.created_at,
    updatedAt: tree.updated_at,
    abilities,
  };
}

/** An event as lists show it. */
export function presentEventSummary(
  event: CallEventRow,
  treeName: string,
  totals: CallTotals,
  myStatus: CallStatus | null,
  abilities: CallEventAbilities,
): CallEventSummary {
  return {
    id: event.id,
    treeId: event.tree_id,
    treeName,
    branchRootId: event.branch_root_id,
    title: event.title,
    message: event.message,
    kind: event.kind,
    state: event.status,
    options: JSON.parse(event.options) as CallEventOption[],
    escalationDelayMinutes: Math.round(event.escalation_delay_seconds / 60),
    startedById: event.started_by,
    startedAt: event.started_at,
    closedAt: event.closed_at,
    totals,
    myStatus,
    abilities,
  };
}

/** An answer, with who gave it and whether it is the person's current one. */
export function presentAnswer(row: CallAnswerRow, answeredByName: string, current: boolean): CallAnswer {
  return {
    id: row.id,
    clientId: row.client_id,
    personId: row.user_id,
    optionId: row.option_id,
    status: row.status,
    note: row.note,
    location: row.location,
    onBehalf: row.on_behalf === 1,
    reachedVia: row.reached_via,
    answeredById: row.answered_by,
    answeredByName,
    answeredAt: row.answered_at,
    recordedAt: row.recorded_at,
    current,
  };
}

/** A targeted person in the roll-up. */
export function presentCallPerson(p: RollupPerson): CallPerson {
  return {
    id: p.id,
    displayName: p.displayName,
    email: p.email,
    department: p.department,
    phone: p.phone,
    managerId: p.managerId,
    managerName: p.managerName,
    managerPhone: p.managerPhone,
    status: p.status,
    optionId: p.optionId,
    note: p.note,
    location: p.location,
    answeredAt: p.answeredAt,
    answeredByName: p.answeredByName,
    onBehalf: p.onBehalf,
    escalations: p.escalations,
  };
}

/** Trees as lists show them, for `user`, in the given order (counts in two queries). */
export async function presentTreeSummaries(
  db: Kysely<Database>,
  user: UserRow,
  trees: CallTreeRow[],
): Promise<CallTreeSummary[]> {
  const counts = await treeCounts(
    db,
    trees.map((t) => t.id),
  );
  return Promise.all(
    trees.map(async (tree) =>
      presentTreeSummary(
        tree,
        counts.members.get(tree.id) ?? 0,
        counts.running.get(tree.id) ?? 0,
        treeAbilities(await treeAccess(db, user, tree.id)),
      ),
    ),
  );
}

/** A tree with its people (top down) and event managers, for `user`. */
export async function presentTreeDetail(
  db: Kysely<Database>,
  user: UserRow,
  tree: CallTreeRow,
): Promise<CallTreeDetail> {
  const members = await loadMembers(db, tree.id);
  const [managers, people, [summary]] = await Promise.all([
    loadEventManagers(db, tree.id),
    peopleById(db, members.keys()),
    presentTreeSummaries(db, user, [tree]),
  ]);
  return {
    ...summary!,
    members: wholeTree(members).map(({ id }) => {
      const p = people.get(id)!;
      return {
        id,
        displayName: p.display_name,
        email: p.email,
        department: p.department,
        jobTitle: p.job_title,
        managerId: members.get(id) ?? null,
      };
    }),
    eventManagers: managers.map((m) => ({ id: m.id, displayName: m.display_name, email: m.email })),
  };
}

/** People the directory could not place, with their names and why. */
export async function presentUnplaced(db: Kysely<Database>, unplaced: Unplaced): Promise<UnplacedPerson[]> {
  const people = await peopleById(
    db,
    unplaced.map((u) => u.id),
  );
  return unplaced.map((u) => ({
    id: u.id,
    displayName: people.get(u.id)?.display_name ?? '',
    email: people.get(u.id)?.email ?? '',
    reason: u.reason,
  }));
}

/** What a refresh from the directory changes (or changed), with the people's names. */
export async function presentRefreshOutcome(
  db: Kysely<Database>,
  outcome: RefreshOutcome,
): Promise<RefreshCallTreeResponse> {
  const people = await peopleById(db, [
    ...outcome.joined,
    ...outcome.left,
    ...outcome.moved.map((m) => m.id),
  ]);
  const ref = (id: string) => ({
    id,
    displayName: people.get(id)?.display_name ?? '',
    email: people.get(id)?.email ?? '',
  });
  return {
    applied: outcome.applied,
    joined: outcome.joined.map(ref),
    left: outcome.left.map(ref),
    moved: outcome.moved.map((m) => ({
      id: m.id,
      displayName: people.get(m.id)?.display_name ?? '',
      fromManagerId: m.from,
      toManagerId: m.to,
    })),
    unplaced: await presentUnplaced(db, outcome.unplaced),
  };
}

/** One edit of a tree's history. */
export function presentTreeChange(row: Selectable<CallTreeChangesTable>): CallTreeChange {
  return {
    id: row.id,
    action: row.action,
    actorId: row.actor_id,
    userId: row.user_id,
    detail: JSON.parse(row.detail) as Record<string, unknown>,
    createdAt: row.created_at,
  };
}

/** A tree as CSV (`email,manager email`, top down), the format the import takes. */
export async function presentTreeCsv(db: Kysely<Database>, tree: CallTreeRow): Promise<string> {
  const members = await loadMembers(db, tree.id);
  const people = await peopleById(db, members.keys());
  const rows = wholeTree(members).map(({ id }) => {
    const manager = members.get(id);
    return [people.get(id)!.email, manager ? people.get(manager)!.email : ''];
  });
  return toCsv(['email', 'manager email'], rows);
}

/** Events as lists show them, for `user`, in the given order. */
export async function presentEventSummaries(
  db: Kysely<Database>,
  user: UserRow,
  events: CallEventRow[],
): Promise<CallEventSummary[]> {
  if (events.length === 0) return [];
  const ids = events.map((e) => e.id);
  const [totals, trees, mine] = await Promise.all([
    eventTotals(db, ids),
    db
      .selectFrom('call_trees')
      .select(['id', 'name'])
      .where('id', 'in', [...new Set(events.map((e) => e.tree_id))])
      .execute(),
    db
      .selectFrom('call_event_targets')
      .select(['event_id', 'status'])
      .where('event_id', 'in', ids)
      .where('user_id', '=', user.id)
      .execute(),
  ]);
  const treeName = new Map(trees.map((t) => [t.id, t.name]));
  const myStatus = new Map(mine.map((m) => [m.event_id, m.status]));
  return Promise.all(
    events.map(async (event) =>
      presentEventSummary(
        event,
        treeName.get(event.tree_id) ?? '',
        totals.get(event.id)!,
        myStatus.get(event.id) ?? null,
        eventAbilities(await eventAccess(db, user, event), event),
      ),
    ),
  );
}

/** The caller's part of an event's people, as `rollupScope` reads it. */
interface ScopedRollup {
  scope: CallEventDetail['scope'];
  people: RollupPerson[];
  counted: RollupPerson[];
  all: Map<string, RollupPerson>;
}

/** What an event's page shows of the roll-up of the caller's scope (all but the summary and my answer). */
type RollupParts = Pick<
  CallEventDetail,
  'scope' | 'scopeTotals' | 'byOption' | 'branches' | 'departments' | 'people'
>;

/**
 * The roll-up parts of scope "event" by the load of the event's people they were computed from, and by
 * the filters: everyone who runs an event sees the same, so the watchers of a crisis share one
 * computation per load (calltree/freshLoads.ts) instead of one per request.
 */
const eventScopeParts = perLoad<RollupParts>();

/**
 * A cache of values computed from one load of an event's people (`all`, never changed) and a key:
 * forgotten with the load.
 */
function perLoad<V>(): (all: Map<string, RollupPerson>, key: string, compute: () => V) => V {
  const byLoad = new WeakMap<Map<string, RollupPerson>, Map<string, V>>();
  return (all, key, compute) => {
    let byKey = byLoad.get(all);
    if (!byKey) {
      byKey = new Map();
      byLoad.set(all, byKey);
    }
    let value = byKey.get(key);
    if (value === undefined) {
      value = compute();
      byKey.set(key, value);
    }
    return value;
  };
}

/** An event with the roll-up of the caller's scope: totals, branches, departments, the first people. */
export function presentEventDetail(
  summary: CallEventSummary,
  rollup: ScopedRollup,
  filters: { status?: CallStatus | undefined; department?: string | undefined },
  myAnswer: CallAnswer | null,
): CallEventDetail {
  const parts =
    rollup.scope === 'event'
      ? eventScopeParts(rollup.all, `${filters.status ?? ''}\u0000${filters.department ?? ''}`, () =>
          rollupParts(rollup, filters),
        )
      : rollupParts(rollup, filters);
  return { ...summary, ...parts, myAnswer };
}

/** The branches of scope "event" by the load they were counted from, and by the department filter. */
const eventScopeBranches = perLoad<Map<string | null, CallBranch[]>>();

/**
 * Every branch of the caller's scope with its counts, by the branch directly above it (null: the top).
 * The roll-up sends the top two levels; a branch opened on the screen reads its level from here
 * (`GET /api/calltree/events/:eventId/branches/:managerId`), computed once per load for those who
 * run the event, like the roll-up's parts.
 */
export function branchTree(
  rollup: ScopedRollup,
  department: string | undefined,
): Map<string | null, CallBranch[]> {
  if (rollup.scope !== 'event') return branchesByParent(branchesOf(rollup.people, rollup.counted));
  return eventScopeBranches(rollup.all, department ?? '', () =>
    branchesByParent(branchesFromShape(shapeOf(rollup.all), rollup.counted)),
  );
}

function rollupParts(
  rollup: ScopedRollup,
  { status, department }: { status?: CallStatus | undefined; department?: string | undefined },
): RollupParts {
  const { scope, people, counted } = rollup;
  const { totals, byOption } = totalsOf(counted);
  const departments = new Map<string, number>();
  for (const p of people) {
    if (p.department) departments.set(p.department, (departments.get(p.department) ?? 0) + 1);
  }
  return {
    scope,
    scopeTotals: totals,
    byOption,
    branches: topBranches(branchTree(rollup, department)),
    departments: [...departments]
      .map(([name, count]) => ({ name, count }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    people:
      scope === 'event'
        ? presentOrderedPage(
            attentionOrderFromShape(
              shapeOf(rollup.all),
              rollup.all,
              (p) => (!department || p.department === department) && (!status || p.status === status),
            ),
            undefined,
            ROLLUP_FIRST_PEOPLE,
          )
        : presentPeoplePage(counted, status, undefined, ROLLUP_FIRST_PEOPLE),
  };
}

/** A page of people already in attention order, after `cursor`. */
function presentOrderedPage(
  ordered: RollupPerson[],
  cursor: string | undefined,
  limit: number,
): { items: CallPerson[]; nextCursor: string | null } {
  const page = pageInAttentionOrder(ordered, cursor, limit);
  return { items: page.items.map(presentCallPerson), nextCursor: page.nextCursor };
}

/**
 * How many people the roll-up sends (need help first): several screens of the list, which reads the
 * next pages as it is scrolled. The roll-up is sent again on every change a watcher's screen hears
 * of; in the crisis minute 100 people were about 35 KB of each.
 */
export const ROLLUP_FIRST_PEOPLE = 50;

/** A page of the roll-up's people (one status, or all) in attention order after `cursor`. */
export function presentPeoplePage(
  counted: RollupPerson[],
  status: CallStatus | undefined,
  cursor: string | undefined,
  limit: number,
): { items: CallPerson[]; nextCursor: string | null } {
  const listed = status ? counted.filter((p) => p.status === status) : counted;
  return presentOrderedPage(attentionOrder(listed), cursor, limit);
}

const STATUS_LABEL = { safe: 'Safe', need_help: 'Need help', no_answer: 'No answer' } as const;

/**
 * The event report as CSV for spreadsheets: a UTF-8 byte-order mark first (Excel then reads Thai),
 * one row per person in attention order with their phone and the location they gave, and each time
 * in UTC beside the same time in the organisation's `timeZone` (ORG_TIME_ZONE).
 */
export function presentEventCsv(event: CallEventRow, people: RollupPerson[], timeZone: string): string {
  const options = new Map((JSON.parse(event.options) as CallEventOption[]).map((o) => [o.id, o.label]));
  const rows = attentionOrder(people).map((p) => [
    p.displayName,
    p.email,
    p.phone,
    p.department,
    p.managerName,
    p.optionId ? (options.get(p.optionId) ?? STATUS_LABEL[p.status]) : STATUS_LABEL[p.status],
    p.note,
    p.location,
    p.answeredAt,
    timeInZone(p.answeredAt, timeZone),
    p.answeredByName
      ? p.onBehalf
        ? `${p.answeredByName} (on behalf${p.onBehalfReachedVia ? `, ${p.onBehalfReachedVia.replace('_', ' ')}` : ''})`
        : p.answeredByName
      : null,
    p.escalations,
  ]);
  const csv = toCsv(
    [
      'person',
      'email',
      'phone',
      'department',
      'manager',
      'status',
      'note',
      'location',
      'answered at (UTC)',
      `answered at (${timeZone})`,
      'answered by',
      'escalations',
    ],
    rows,
  );
  return `${UTF8_BOM}${csv}`;
}

/** How fast people answered; a running event's duration runs to `now`. */
export function presentEventReport(
  event: CallEventRow,
  facts: EventReportFacts,
  now: string,
): CallEventReport {
  const times = facts.firstAnswers;
  const end = event.closed_at ?? now;
  return {
    totals: facts.totals,
    secondsTo50: secondsToShare(times, event.target_count, 0.5, event.started_at),
    secondsTo90: secondsToShare(times, event.target_count, 0.9, event.started_at),
    secondsTo100: secondsToShare(times, event.target_count, 1, event.started_at),
    onBehalf: facts.onBehalf,
    escalations: facts.escalations,
    durationSeconds: (Date.parse(end) - Date.parse(event.started_at)) / 1000,
  };
}

/** One person's answers (oldest first, the current one marked) and escalations. */
export function presentPersonHistory(
  person: RollupPerson,
  history: {
    answers: (CallAnswerRow & { answered_by_name: string })[];
    escalations: { level: number; notified_user_id: string; created_at: string; display_name: string }[];
    currentId: string | null;
  },
): CallPersonHistory {
  return {
    person: presentCallPerson(person),
    answers: history.answers.map((a) => presentAnswer(a, a.answered_by_name, a.id === history.currentId)),
    escalations: history.escalations.map((x) => ({
      level: x.level,
      notifiedUserId: x.notified_user_id,
      notifiedName: x.display_name,
      createdAt: x.created_at,
    })),
  };
}
