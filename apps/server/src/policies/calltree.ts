import type { CallEventAbilities, CallTreeAbilities } from '@btalk/contracts';
import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely';
import type { Database } from '../db/index.ts';
import { reusable } from '../db/reusable.ts';
import type { CallEventRow, CallEventTargetRow, UserRow } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';

/*
 * Who may do what with call trees and their events, as plain rules:
 * - Admins build, edit, import and export trees and grant the event manager role.
 * - A tree's event managers (and admins) start, close and remind events on it, and see the whole roll-up.
 * - Members of a tree see the tree.
 * - A targeted person sees the event and the roll-up of their own branch of the snapshot.
 * - Only the person, or a manager above them in the event's snapshot, answers for a person.
 * - Anyone else learns nothing: 404, as if the tree or event did not exist.
 */

/** How a person relates to a tree. */
export interface TreeAccess {
  admin: boolean;
  eventManager: boolean;
  member: boolean;
}

/** Loads how `user` relates to the tree. */
export async function treeAccess(db: Kysely<Database>, user: UserRow, treeId: string): Promise<TreeAccess> {
  const [manager, member] = await Promise.all([
    db
      .selectFrom('call_tree_managers')
      .select('user_id')
      .where('tree_id', '=', treeId)
      .where('user_id', '=', user.id)
      .executeTakeFirst(),
    db
      .selectFrom('call_tree_members')
      .select('user_id')
      .where('tree_id', '=', treeId)
      .where('user_id', '=', user.id)
      .executeTakeFirst(),
  ]);
  return { admin: user.role === 'admin', eventManager: !!manager, member: !!member };
}

/** What the caller may do with a tree. */
export function treeAbilities(access: TreeAccess): CallTreeAbilities {
  return {
    edit: access.admin,
    manageRoles: access.admin,
    startEvent: access.admin || access.eventManager,
    export: access.admin || access.eventManager,
  };
}

/** A tree action that needs a permission. */
export type TreeAction = 'view' | keyof CallTreeAbilities;

/** Throws 404 to people who may not see the tree, 403 to those who see it but may not do `action`. */
export function authorizeTree(access: TreeAccess, action: TreeAction): void {
  if (!(access.admin || access.eventManager || access.member)) {
    throw new AppError('notFound', 'No such call tree, or you are not in it. Check the link.');
  }
  if (action === 'view') return;
  if (!treeAbilities(access)[action]) {
    const who = action === 'startEvent' || action === 'export' ? 'an event manager of this tree' : 'an admin';
    throw new AppError('forbidden', `Only ${who} may do this. Ask an admin for the role.`);
  }
}

/**
 * The one way routes ask: throws unless `user` may do `action` with a tree (`{ tree }`: 404 to
 * people who may not see it, 403 to those who may not do it), with an event (`{ event, access }`:
 * 404, 403, or 409 once closed), or create a tree (no target: admins).
 */
export function authorize(user: CallTreeViewer, action: 'createTree'): void;
export function authorize(user: CallTreeViewer, action: TreeAction, target: { tree: TreeAccess }): void;
export function authorize(
  user: CallTreeViewer,
  action: EventAction,
  target: { event: CallEventRow; access: EventAccess },
): void;
export function authorize(
  user: CallTreeViewer,
  action: 'createTree' | TreeAction | EventAction,
  target?: { tree: TreeAccess } | { event: CallEventRow; access: EventAccess },
): void {
  if (!target) authorizeTreeCreation(user);
  else if ('tree' in target) authorizeTree(target.tree, action as TreeAction);
  else authorizeEvent(target.access, target.event, action as EventAction);
}

/** How a person relates to an event. */
export interface EventAccess {
  admin: boolean;
  eventManager: boolean;
  /** The person's own row of the snapshot, when targeted. */
  target: CallEventTargetRow | undefined;
  /** Whether anyone in the snapshot reports to the person. */
  hasReports: boolean;
}

/** 404 for an event that does not exist or that the caller may not see (they learn nothing more). */
export function noSuchEvent(): AppError {
  return new AppError('notFound', 'No such call-tree event, or it does not concern you. Check the link.');
}

/** The columns of the caller's own snapshot row, read beside the event under these names. */
const TARGET_COLUMNS = [
  't.event_id as target_event_id',
  't.user_id as target_user_id',
  't.manager_id as target_manager_id',
  't.depth as target_depth',
  't.status as target_status',
  't.option_id as target_option_id',
  't.answer_id as target_answer_id',
  't.answered_at as target_answered_at',
  't.first_answered_at as target_first_answered_at',
  't.on_behalf as target_on_behalf',
  't.escalation_level as target_escalation_level',
  't.next_escalation_at as target_next_escalation_at',
] as const;

/**
 * The event, its tree's name and how `user` relates to it, in one query (every call-tree request and
 * every answer asks it first; in the crisis minute each statement saved is a round trip fewer at
 * hundreds of answers a second), built once. Undefined when there is no such event.
 */
const eventAndAccessRows = reusable((db: Kysely<Database>, userId: string, eventId: string) =>
  db
    .selectFrom('call_events as e')
    .leftJoin('call_trees as tree', 'tree.id', 'e.tree_id')
    .leftJoin('call_event_targets as t', (join) =>
      join.onRef('t.event_id', '=', 'e.id').on('t.user_id', '=', userId),
    )
    .selectAll('e')
    .select('tree.name as tree_name')
    .select(TARGET_COLUMNS)
    .select((eb) => [
      eb
        .exists(
          eb
            .selectFrom('call_tree_managers as m')
            .select('m.user_id')
            .whereRef('m.tree_id', '=', 'e.tree_id')
            .where('m.user_id', '=', userId),
        )
        .as('is_event_manager'),
      eb
        .exists(
          eb
            .selectFrom('call_event_targets as r')
            .select('r.user_id')
            .whereRef('r.event_id', '=', 'e.id')
            .where('r.manager_id', '=', userId),
        )
        .as('has_reports'),
    ])
    .where('e.id', '=', eventId),
);

async function eventAndAccessRow(db: Kysely<Database>, user: UserRow, eventId: string) {
  const [row] = await eventAndAccessRows(db, user.id, eventId);
  return row;
}

type EventAndAccessRow = NonNullable<Awaited<ReturnType<typeof eventAndAccessRow>>>;

/** The row's columns that are not the event's own (`e.*`). */
const NOT_EVENT_COLUMNS = new Set([
  'tree_name',
  'is_event_manager',
  'has_reports',
  ...TARGET_COLUMNS.map((c) => c.split(' as ')[1]!),
]);

/** The event's own columns of the row, whatever columns `call_events` has. */
function eventOf(row: EventAndAccessRow): CallEventRow {
  return Object.fromEntries(
    Object.entries(row).filter(([column]) => !NOT_EVENT_COLUMNS.has(column)),
  ) as unknown as CallEventRow;
}

function accessOf(user: UserRow, row: EventAndAccessRow): EventAccess {
  return {
    admin: user.role === 'admin',
    eventManager: !!row.is_event_manager,
    // The left join's columns are null when the event does not target the person.
    target: row.target_user_id
      ? {
          event_id: row.target_event_id!,
          user_id: row.target_user_id,
          manager_id: row.target_manager_id,
          depth: row.target_depth!,
          status: row.target_status!,
          option_id: row.target_option_id,
          answer_id: row.target_answer_id,
          answered_at: row.target_answered_at,
          first_answered_at: row.target_first_answered_at,
          on_behalf: row.target_on_behalf!,
          escalation_level: row.target_escalation_level!,
          next_escalation_at: row.target_next_escalation_at,
        }
      : undefined,
    hasReports: !!row.has_reports,
  };
}

/** Loads how `user` relates to the event. */
export async function eventAccess(
  db: Kysely<Database>,
  user: UserRow,
  event: CallEventRow,
): Promise<EventAccess> {
  const row = await eventAndAccessRow(db, user, event.id);
  if (!row)
    return { admin: user.role === 'admin', eventManager: false, target: undefined, hasReports: false };
  return accessOf(user, row);
}

/** An event with how `user` relates to it and its tree's name (one query), or 404. */
export async function loadEventWithAccess(
  db: Kysely<Database>,
  user: UserRow,
  eventId: string,
): Promise<{ event: CallEventRow; access: EventAccess; treeName: string }> {
  const row = await eventAndAccessRow(db, user, eventId);
  if (!row) throw noSuchEvent();
  return { event: eventOf(row), access: accessOf(user, row), treeName: row.tree_name ?? '' };
}

/** What the caller may do with an event. */
export function eventAbilities(access: EventAccess, event: CallEventRow): CallEventAbilities {
  const running = event.status === 'running';
  const runsIt = access.admin || access.eventManager;
  return {
    close: runsIt && running,
    remind: runsIt && running,
    report: runsIt,
    answer: running && !!access.target,
    answerOnBehalf: running && !!access.target && access.hasReports,
  };
}

/** An event action that needs a permission. */
export type EventAction = 'view' | 'close' | 'remind' | 'report';

/** Throws 404 to people who may not see the event, 403 (or 409 once closed) to those who may not do `action`. */
export function authorizeEvent(access: EventAccess, event: CallEventRow, action: EventAction): void {
  const runsIt = access.admin || access.eventManager;
  if (!(runsIt || access.target)) {
    throw noSuchEvent();
  }
  if (action === 'view') return;
  if (!runsIt) {
    throw new AppError('forbidden', 'Only an event manager of this call tree or an admin may do this.');
  }
  if ((action === 'close' || action === 'remind') && event.status !== 'running') {
    throw new AppError('conflict', 'This event is closed; its answers are frozen.');
  }
}

/**
 * The person and the managers above them in the event's snapshot, nearest first (one query; not
 * today's tree: the snapshot is what the event targets). Who may answer for a person and who may
 * read their answers both follow this chain.
 */
export async function snapshotChain(
  db: Kysely<Database>,
  eventId: string,
  personId: string,
): Promise<string[]> {
  const rows = await db
    .withRecursive('chain(user_id, manager_id, depth)', (qb) =>
      qb
        .selectFrom('call_event_targets')
        .select(['user_id', 'manager_id', sql<number>`0`.as('depth')])
        .where('event_id', '=', eventId)
        .where('user_id', '=', personId)
        .unionAll((eb) =>
          eb
            .selectFrom('call_event_targets as t')
            .innerJoin('chain as c', 'c.manager_id', 't.user_id')
            .select(['t.user_id', 't.manager_id', sql<number>`c.depth + 1`.as('depth')])
            .where('t.event_id', '=', eventId)
            .where('c.depth', '<', MAX_CHAIN_DEPTH),
        ),
    )
    .selectFrom('chain')
    .select(['user_id', 'depth'])
    .orderBy('depth')
    .execute();
  return [...new Set(rows.map((r) => r.user_id))];
}

/** A snapshot's manager chain is never longer than this (a loop in bad data stops here). */
const MAX_CHAIN_DEPTH = 64;

/**
 * Whether `actorId` may answer for `personId` in the event: the person themselves, or a manager
 * above them in the event's snapshot (`chain`, the person's `snapshotChain`).
 */
export function mayAnswerFor(actorId: string, personId: string, chain: readonly string[]): boolean {
  return actorId === personId || chain.includes(actorId);
}

/**
 * Whether `viewerId` may read a person's answers and escalations in an event: those who run it
 * (admins, the tree's event managers), and everyone in the person's `chain` (see `snapshotChain`):
 * the person and the managers above them. The one rule for the roll-up over HTTP and for the
 * realtime stream.
 */
export function mayReadAnswersOf(runsIt: boolean, viewerId: string, chain: readonly string[]): boolean {
  return runsIt || chain.includes(viewerId);
}

/**
 * Whether a realtime event of the room `callevent:<id>` may reach `viewerId`: what concerns the
 * event as a whole reaches everyone who sees it; an answer or an escalation about one person (its
 * payload has `personId` and that person's `chain`) only those who may read that person's answers.
 */
export function mayReceiveCallEvent(runsIt: boolean, viewerId: string, payload: unknown): boolean {
  const about = payload as { personId?: unknown; chain?: unknown } | null;
  if (typeof about?.personId !== 'string') return true;
  const chain = Array.isArray(about.chain) ? (about.chain as string[]) : [];
  return mayReadAnswersOf(runsIt, viewerId, chain);
}

/** The events among `eventIds` that `user` runs (admins: all; else the trees they are event manager of). */
export async function runCallEventIds(
  db: Kysely<Database>,
  user: UserRow,
  eventIds: readonly string[],
): Promise<Set<string>> {
  if (eventIds.length === 0) return new Set();
  if (user.role === 'admin') return new Set(eventIds);
  const rows = await db
    .selectFrom('call_events')
    .select('id')
    .where('id', 'in', eventIds)
    .where(
      'tree_id',
      'in',
      db.selectFrom('call_tree_managers').select('tree_id').where('user_id', '=', user.id),
    )
    .execute();
  return new Set(rows.map((r) => r.id));
}

/**
 * Everyone a just-started event concerns, by the rule of `authorizeEvent`: the people it targets
 * and the tree's event managers (admins too, whom the caller knows by role); and among them, who
 * runs it (reads every answer). For the realtime stream: two queries, whatever the number of sockets.
 */
export async function callEventAudience(
  db: Kysely<Database>,
  eventId: string,
): Promise<{ people: Set<string>; runners: Set<string> }> {
  const event = await db
    .selectFrom('call_events')
    .select('tree_id')
    .where('id', '=', eventId)
    .executeTakeFirst();
  if (!event) return { people: new Set(), runners: new Set() };
  const [targets, managers] = await Promise.all([
    db.selectFrom('call_event_targets').select('user_id').where('event_id', '=', eventId).execute(),
    db.selectFrom('call_tree_managers').select('user_id').where('tree_id', '=', event.tree_id).execute(),
  ]);
  const runners = new Set(managers.map((m) => m.user_id));
  return { people: new Set([...targets.map((t) => t.user_id), ...runners]), runners };
}

/**
 * Whether `user` may see the event (and so receive its room `callevent:<id>` in the realtime
 * stream): admins, the tree's event managers, and everyone the event targets.
 */
export async function canSeeCallEvent(
  db: Kysely<Database>,
  user: UserRow,
  eventId: string,
): Promise<boolean> {
  const row = await eventAndAccessRow(db, user, eventId);
  if (!row) return false;
  const access = accessOf(user, row);
  return access.admin || access.eventManager || !!access.target;
}

/** The ids of every event `user` may see (for the realtime room registry), newest first. */
export async function visibleCallEventIds(db: Kysely<Database>, user: UserRow): Promise<string[]> {
  const rows = await db
    .selectFrom('call_events')
    .select('id')
    .where(visibleCallEvents(user))
    .orderBy('id', 'desc')
    .execute();
  return rows.map((r) => r.id);
}

/** The person a list restriction asks about: their id and role are all the rules need. */
export type CallTreeViewer = Pick<UserRow, 'id' | 'role'>;

/**
 * Restricts a query that has `call_events` in it to the events `viewer` may see, the rule of
 * `authorizeEvent` for lists: every event for admins, else the events of trees they are an event
 * manager of and the events that target them.
 */
export function visibleCallEvents(viewer: CallTreeViewer) {
  return (eb: ExpressionBuilder<Database, 'call_events'>): Expression<SqlBool> =>
    viewer.role === 'admin'
      ? sql<SqlBool>`1 = 1`
      : eb.or([
          eb(
            'call_events.tree_id',
            'in',
            eb
              .selectFrom('call_tree_managers as vm')
              .select('vm.tree_id')
              .where('vm.user_id', '=', viewer.id),
          ),
          eb(
            'call_events.id',
            'in',
            eb
              .selectFrom('call_event_targets as vt')
              .select('vt.event_id')
              .where('vt.user_id', '=', viewer.id),
          ),
        ]);
}

/**
 * Restricts a query that has `call_trees` in it to the trees `viewer` may see, the rule of
 * `authorizeTree` for lists: every tree for admins, else those they are an event manager or a member of.
 */
export function visibleCallTrees(viewer: CallTreeViewer) {
  return (eb: ExpressionBuilder<Database, 'call_trees'>): Expression<SqlBool> =>
    viewer.role === 'admin'
      ? sql<SqlBool>`1 = 1`
      : eb.or([
          eb(
            'call_trees.id',
            'in',
            eb
              .selectFrom('call_tree_managers as vm')
              .select('vm.tree_id')
              .where('vm.user_id', '=', viewer.id),
          ),
          eb(
            'call_trees.id',
            'in',
            eb.selectFrom('call_tree_members as vt').select('vt.tree_id').where('vt.user_id', '=', viewer.id),
          ),
        ]);
}

/** Whether the person may build call trees (admins). */
export function canCreateTrees(viewer: CallTreeViewer): boolean {
  return viewer.role === 'admin';
}

/** Throws 403 unless the person may build call trees (admins). */
export function authorizeTreeCreation(viewer: CallTreeViewer): void {
  if (!canCreateTrees(viewer)) throw new AppError('forbidden', 'Only an admin may create call trees.');
}

/**
 * Throws 403 unless `actorId` may answer for `personId` in the event (see `mayAnswerFor`); the
 * person is one the event targets (checked when loading them).
 */
export function authorizeAnswerFor(actorId: string, personId: string, chain: readonly string[]): void {
  if (!mayAnswerFor(actorId, personId, chain)) {
    throw new AppError(
      'forbidden',
      'Only the person or a manager above them in this event may answer for them.',
    );
  }
}
