import type { CallEventAbilities, CallTreeAbilities } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
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

/** How a person relates to an event. */
export interface EventAccess {
  admin: boolean;
  eventManager: boolean;
  /** The person's own row of the snapshot, when targeted. */
  target: CallEventTargetRow | undefined;
  /** Whether anyone in the snapshot reports to the person. */
  hasReports: boolean;
}

/** Loads how `user` relates to the event. */
export async function eventAccess(
  db: Kysely<Database>,
  user: UserRow,
  event: CallEventRow,
): Promise<EventAccess> {
  const [manager, target, report] = await Promise.all([
    db
      .selectFrom('call_tree_managers')
      .select('user_id')
      .where('tree_id', '=', event.tree_id)
      .where('user_id', '=', user.id)
      .executeTakeFirst(),
    db
      .selectFrom('call_event_targets')
      .selectAll()
      .where('event_id', '=', event.id)
      .where('user_id', '=', user.id)
      .executeTakeFirst(),
    db
      .selectFrom('call_event_targets')
      .select('user_id')
      .where('event_id', '=', event.id)
      .where('manager_id', '=', user.id)
      .limit(1)
      .executeTakeFirst(),
  ]);
  return { admin: user.role === 'admin', eventManager: !!manager, target, hasReports: !!report };
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
    throw new AppError('notFound', 'No such call-tree event, or it does not concern you. Check the link.');
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
 * Whether `actorId` may answer for `personId` in the event: the person themselves, or a manager
 * above them in the event's snapshot (not in today's tree: the snapshot is what the event targets).
 */
export async function mayAnswerFor(
  db: Kysely<Database>,
  eventId: string,
  actorId: string,
  personId: string,
): Promise<boolean> {
  if (actorId === personId) return true;
  const seen = new Set<string>();
  let at: string | null = personId;
  while (at && !seen.has(at)) {
    seen.add(at);
    const row: { manager_id: string | null } | undefined = await db
      .selectFrom('call_event_targets')
      .select('manager_id')
      .where('event_id', '=', eventId)
      .where('user_id', '=', at)
      .executeTakeFirst();
    at = row?.manager_id ?? null;
    if (at === actorId) return true;
  }
  return false;
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
  const event = await db.selectFrom('call_events').selectAll().where('id', '=', eventId).executeTakeFirst();
  if (!event) return false;
  const access = await eventAccess(db, user, event);
  return access.admin || access.eventManager || !!access.target;
}

/** The ids of every event `user` may see (for the realtime room registry), newest first. */
export async function visibleCallEventIds(db: Kysely<Database>, user: UserRow): Promise<string[]> {
  let query = db.selectFrom('call_events').select('id');
  if (user.role !== 'admin') {
    query = query.where((eb) =>
      eb.or([
        eb(
          'tree_id',
          'in',
          eb.selectFrom('call_tree_managers').select('tree_id').where('user_id', '=', user.id),
        ),
        eb('id', 'in', eb.selectFrom('call_event_targets').select('event_id').where('user_id', '=', user.id)),
      ]),
    );
  }
  const rows = await query.orderBy('id', 'desc').execute();
  return rows.map((r) => r.id);
}
