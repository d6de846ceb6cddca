import type { CallAnswer, CallRollupQuery, CallTotals } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/index.ts';
import type { CallAnswerRow, CallEventRow, UserRow } from '../db/schema.ts';
import { type EventAccess, noSuchEvent } from '../policies/calltree.ts';
import { presentAnswer } from '../presenters/calltree.ts';
import { carryShape, loadEventPeople, type RollupPerson, reloadEventPeople, totalsOf } from './rollup.ts';
import { eventTotals } from './totals.ts';

/** Loads an event or answers 404. */
export async function loadEvent(db: Kysely<Database>, eventId: string): Promise<CallEventRow> {
  const event = await db.selectFrom('call_events').selectAll().where('id', '=', eventId).executeTakeFirst();
  if (!event) throw noSuchEvent();
  return event;
}

/**
 * Who the caller's roll-up covers: the whole event for those who run it, else their own branch. The
 * event's people come from a load shared with the other readers of the event that began after this
 * request came (`ctx.eventPeople`, calltree/freshLoads.ts); they are read, never changed.
 */
export async function rollupScope(
  ctx: Pick<AppContext, 'db' | 'eventPeople'>,
  event: CallEventRow,
  user: UserRow,
  access: EventAccess,
  filters: CallRollupQuery,
): Promise<{
  scope: 'event' | 'branch' | 'self';
  people: RollupPerson[];
  counted: RollupPerson[];
  all: Map<string, RollupPerson>;
  /** The whole event's counts, from the same load. */
  eventTotals: CallTotals;
}> {
  const { all, totals } = await ctx.eventPeople.get(event.id, (previous) =>
    loadEventPeopleSince(ctx.db.kysely, event.id, previous),
  );
  const runsIt = access.admin || access.eventManager;
  const people = runsIt ? [...all.values()] : branchOf(all, user.id);
  const scope = runsIt ? 'event' : access.hasReports ? 'branch' : 'self';
  const counted = filters.department ? people.filter((p) => p.department === filters.department) : people;
  return { scope, people, counted, all, eventTotals: totals };
}

/** An event's people as one load reads them (shared by the roll-ups read meanwhile), and their counts. */
export interface LoadedEventPeople {
  all: Map<string, RollupPerson>;
  totals: CallTotals;
  /** The last event of the event's room (`callevent:<id>`) the people reflect. */
  seq: number;
  /** When the people were last read whole (`Date.now()`). */
  fullAt: number;
}

/**
 * How long an event's people are brought up to date from its answers alone before they are read
 * whole again (a name, a phone or a manager's name changed in the directory shows then).
 */
export const FULL_RELOAD_MS = 30_000;

/** Beyond this many events since the last load, the people are read whole again. */
const MOST_PATCHED = 2_000;

/**
 * An event's people, read whole or, given the last load, brought up to date from it: every change of
 * a person's answer or escalations is recorded with an event in the event's room in the same
 * transaction, and the event log's numbers become visible in commit order, so the people of the
 * events after the last load's number are all that may have changed since (read again, the others
 * kept). In the crisis minute this reads the few dozen people who answered in the last 250 ms
 * instead of all 10,000, four times a second; with no change, the last load itself is returned (and
 * the roll-up parts computed from it are reused).
 */
export async function loadEventPeopleSince(
  db: Kysely<Database>,
  eventId: string,
  previous: LoadedEventPeople | undefined,
): Promise<LoadedEventPeople> {
  const room = `callevent:${eventId}`;
  if (previous && Date.now() - previous.fullAt < FULL_RELOAD_MS) {
    const changes = await db
      .selectFrom('events')
      .select(['seq', 'payload'])
      .where('room', '=', room)
      .where('seq', '>', previous.seq)
      .orderBy('seq')
      .limit(MOST_PATCHED + 1)
      .execute();
    if (changes.length === 0) return previous;
    if (changes.length <= MOST_PATCHED) {
      const ids = new Set<string>();
      for (const { payload } of changes) {
        const { personId } = JSON.parse(payload) as { personId?: unknown };
        if (typeof personId === 'string') ids.add(personId);
      }
      const all = ids.size > 0 ? await reloadEventPeople(db, eventId, previous.all, [...ids]) : previous.all;
      carryShape(previous.all, all);
      return {
        all,
        totals: all === previous.all ? previous.totals : totalsOf([...all.values()]).totals,
        seq: Number(changes.at(-1)!.seq),
        fullAt: previous.fullAt,
      };
    }
  }
  const fullAt = Date.now();
  // The number first: whatever commits between the two reads is read again by the next load.
  const last = await db
    .selectFrom('events')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .where('room', '=', room)
    .executeTakeFirst();
  const all = await loadEventPeople(db, eventId);
  return { all, totals: totalsOf([...all.values()]).totals, seq: Number(last?.seq ?? 0), fullAt };
}

/** Reports of each person in a load, kept per load (a load is never changed). */
const reportsByLoad = new WeakMap<Map<string, RollupPerson>, Map<string, RollupPerson[]>>();

/**
 * The people whose manager chain in the snapshot holds `managerId`, them included: their branch,
 * walked down from them (each person once, whatever loops bad data may hold).
 */
export function branchOf(all: Map<string, RollupPerson>, managerId: string): RollupPerson[] {
  let reports = reportsByLoad.get(all);
  if (!reports) {
    reports = new Map();
    for (const p of all.values()) {
      if (!p.managerId) continue;
      const list = reports.get(p.managerId);
      if (list) list.push(p);
      else reports.set(p.managerId, [p]);
    }
    reportsByLoad.set(all, reports);
  }
  const top = all.get(managerId);
  if (!top) return [];
  const branch = [top];
  const seen = new Set([managerId]);
  for (let i = 0; i < branch.length; i++) {
    for (const report of reports.get(branch[i]!.id) ?? []) {
      if (seen.has(report.id)) continue;
      seen.add(report.id);
      branch.push(report);
    }
  }
  return branch;
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

/** Running events waiting for the person's answer, newest first. */
export function pendingEventsFor(db: Kysely<Database>, userId: string): Promise<CallEventRow[]> {
  return db
    .selectFrom('call_events as e')
    .innerJoin('call_event_targets as t', 't.event_id', 'e.id')
    .selectAll('e')
    .where('t.user_id', '=', userId)
    .where('t.status', '=', 'no_answer')
    .where('e.status', '=', 'running')
    .orderBy('e.id', 'desc')
    .execute();
}

/** The id of the person's current answer in the event (null before any). */
export async function currentAnswerId(
  db: Kysely<Database>,
  eventId: string,
  personId: string,
): Promise<string | null> {
  const row = await db
    .selectFrom('call_event_targets')
    .select('answer_id')
    .where('event_id', '=', eventId)
    .where('user_id', '=', personId)
    .executeTakeFirstOrThrow();
  return row.answer_id;
}

/** Every answer about a person in an event (oldest first, with who gave it) and each escalation. */
export async function loadPersonHistory(
  db: Kysely<Database>,
  eventId: string,
  personId: string,
): Promise<{
  answers: (CallAnswerRow & { answered_by_name: string })[];
  escalations: { level: number; notified_user_id: string; created_at: string; display_name: string }[];
  currentId: string | null;
}> {
  const [answers, escalations, currentId] = await Promise.all([
    db
      .selectFrom('call_answers as a')
      .innerJoin('users as u', 'u.id', 'a.answered_by')
      .selectAll('a')
      .select('u.display_name as answered_by_name')
      .where('a.event_id', '=', eventId)
      .where('a.user_id', '=', personId)
      .orderBy('a.id')
      .execute(),
    db
      .selectFrom('call_escalations as x')
      .innerJoin('users as u', 'u.id', 'x.notified_user_id')
      .select(['x.level', 'x.notified_user_id', 'x.created_at', 'u.display_name'])
      .where('x.event_id', '=', eventId)
      .where('x.user_id', '=', personId)
      .orderBy('x.level')
      .execute(),
    currentAnswerId(db, eventId, personId),
  ]);
  return { answers, escalations, currentId };
}

/** What the event summary is computed from: first answers, answers on behalf, escalations, totals. */
export interface EventReportFacts {
  firstAnswers: string[];
  onBehalf: number;
  escalations: number;
  totals: CallTotals;
}

/** Loads the facts of an event's summary (four queries). */
export async function loadEventReportFacts(
  db: Kysely<Database>,
  event: CallEventRow,
): Promise<EventReportFacts> {
  const [firsts, onBehalf, escalations, totals] = await Promise.all([
    db
      .selectFrom('call_event_targets')
      .select('first_answered_at')
      .where('event_id', '=', event.id)
      .where('first_answered_at', 'is not', null)
      .execute(),
    db
      .selectFrom('call_answers')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('event_id', '=', event.id)
      .where('on_behalf', '=', 1)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('call_escalations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('event_id', '=', event.id)
      .executeTakeFirstOrThrow(),
    eventTotals(db, [event.id]),
  ]);
  return {
    firstAnswers: firsts.map((f) => f.first_answered_at!),
    onBehalf: Number(onBehalf.n),
    escalations: Number(escalations.n),
    totals: totals.get(event.id)!,
  };
}
