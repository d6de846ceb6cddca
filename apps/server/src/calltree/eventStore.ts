import type { CallAnswer, CallEventSummary, CallRollupQuery } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { CallEventRow, UserRow } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { type EventAccess, eventAbilities, eventAccess } from '../policies/calltree.ts';
import { presentAnswer, presentEventSummary } from '../presenters/calltree.ts';
import { branchPeople, loadEventPeople, type RollupPerson } from './rollup.ts';
import { eventTotals } from './totals.ts';

/** Loads an event or answers 404. */
export async function loadEvent(db: Kysely<Database>, eventId: string): Promise<CallEventRow> {
  const event = await db.selectFrom('call_events').selectAll().where('id', '=', eventId).executeTakeFirst();
  if (!event)
    throw new AppError('notFound', 'No such call-tree event, or it does not concern you. Check the link.');
  return event;
}

/** Events as lists show them, for `user`, in the given order. */
export async function eventSummaries(
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

/** Who the caller's roll-up covers: the whole event for those who run it, else their own branch. */
export async function rollupScope(
  db: Kysely<Database>,
  event: CallEventRow,
  user: UserRow,
  access: EventAccess,
  filters: CallRollupQuery,
): Promise<{
  scope: 'event' | 'branch' | 'self';
  people: RollupPerson[];
  counted: RollupPerson[];
  all: Map<string, RollupPerson>;
}> {
  const all = await loadEventPeople(db, event.id);
  const runsIt = access.admin || access.eventManager;
  const people = runsIt ? [...all.values()] : branchPeople(all, user.id);
  const scope = runsIt ? 'event' : access.hasReports ? 'branch' : 'self';
  const counted = filters.department ? people.filter((p) => p.department === filters.department) : people;
  return { scope, people, counted, all };
}

/** A person's current answer in an event, presented, or null. */
export async function currentAnswer(
  db: Kysely<Database>,
  answerId: string | null,
): Promise<CallAnswer | null> {
  if (!answerId) return null;
  const row = await db
    .selectFrom('call_answers as a')
    .innerJoin('users as u', 'u.id', 'a.answered_by')
    .selectAll('a')
    .select('u.display_name as answered_by_name')
    .where('a.id', '=', answerId)
    .executeTakeFirst();
  return row ? presentAnswer(row, row.answered_by_name, true) : null;
}
