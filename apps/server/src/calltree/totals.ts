import type { CallTotals } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';

/** Counts with nobody in them. */
export function emptyTotals(): CallTotals {
  return { total: 0, safe: 0, needHelp: 0, noAnswer: 0 };
}

/** Adds one person of the given status to the counts. */
export function countInto(totals: CallTotals, status: 'safe' | 'need_help' | 'no_answer'): void {
  totals.total += 1;
  if (status === 'safe') totals.safe += 1;
  else if (status === 'need_help') totals.needHelp += 1;
  else totals.noAnswer += 1;
}

/**
 * The count by status of each event's targets, for the event pages and lists: it is answered from the
 * covering index on (event_id, status), without reading the targets' rows.
 */
export function totalsQuery(db: Kysely<Database>, eventIds: string[]) {
  return db
    .selectFrom('call_event_targets')
    .select(['event_id', 'status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('event_id', 'in', eventIds)
    .groupBy(['event_id', 'status']);
}

/** Counts by status of each event, in one query. */
export async function eventTotals(
  db: Kysely<Database>,
  eventIds: string[],
): Promise<Map<string, CallTotals>> {
  const out = new Map<string, CallTotals>(eventIds.map((id) => [id, emptyTotals()]));
  if (eventIds.length === 0) return out;
  const rows = await totalsQuery(db, eventIds).execute();
  for (const row of rows) {
    const t = out.get(row.event_id)!;
    const n = Number(row.n);
    t.total += n;
    if (row.status === 'safe') t.safe += n;
    else if (row.status === 'need_help') t.needHelp += n;
    else t.noAnswer += n;
  }
  return out;
}
