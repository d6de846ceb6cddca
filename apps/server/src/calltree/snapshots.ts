import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { CallEventRow } from '../db/schema.ts';

/**
 * A person and the managers above them in an event's snapshot, nearest first, from `managerOf`
 * (a targeted person's manager id, null at the top of the targeted branch, undefined for someone the
 * event does not target): empty when the person is not targeted. The in-memory twin of
 * `snapshotChain` in policies/calltree.ts; a loop in bad data stops at the first repeat.
 */
export function chainIn(managerOf: (id: string) => string | null | undefined, personId: string): string[] {
  const chain: string[] = [];
  let at: string | null | undefined = personId;
  while (at) {
    const manager = managerOf(at);
    if (manager === undefined || chain.includes(at)) break;
    chain.push(at);
    at = manager;
  }
  return chain;
}

/** How many events' snapshots an instance keeps (the most recently used); 10,000 people take about 1 MB. */
const KEPT_EVENTS = 16;

/**
 * The manager of each targeted person in call-tree events' snapshots, read once per event (one
 * query) and kept: a snapshot is written with its event and never changes. An answer needs the
 * person's chain to know who may answer for them; reading it by a recursive query was one of the
 * statements of every answer in the crisis minute (docs/benchmarks.md).
 *
 * Only for an event already read from the database: its snapshot was committed with it.
 */
export class EventSnapshots {
  readonly #kept = new Map<string, Promise<Map<string, string | null>>>();
  readonly #running = new Map<string, CallEventRow>();

  /**
   * An event this instance has read while it was running (its options, start and snapshot never
   * change): a person's own answer to it is written by a statement that checks the event is still
   * running (PostgreSQL's `record_own_call_answer`), so it need not be read again first.
   */
  runningEvent(eventId: string): CallEventRow | undefined {
    return this.#running.get(eventId);
  }

  /** Remembers an event read while running, or forgets it once it is seen closed. */
  sawEvent(event: CallEventRow): void {
    this.#running.delete(event.id);
    if (event.status !== 'running') return;
    this.#running.set(event.id, event);
    if (this.#running.size > KEPT_EVENTS) this.#running.delete(this.#running.keys().next().value!);
  }

  /** The person's chain in the event's snapshot (`chainIn`): empty when the event does not target them. */
  async chain(db: Kysely<Database>, eventId: string, personId: string): Promise<string[]> {
    const managers = await this.#managers(db, eventId);
    return chainIn((id) => managers.get(id), personId);
  }

  #managers(db: Kysely<Database>, eventId: string): Promise<Map<string, string | null>> {
    const kept = this.#kept.get(eventId);
    if (kept) {
      // Most recently used last: the first key is the one to drop.
      this.#kept.delete(eventId);
      this.#kept.set(eventId, kept);
      return kept;
    }
    const loading = db
      .selectFrom('call_event_targets')
      .select(['user_id', 'manager_id'])
      .where('event_id', '=', eventId)
      .execute()
      .then((rows) => new Map(rows.map((r) => [r.user_id, r.manager_id])));
    // A failed read is not kept: the next answer reads again.
    loading.catch(() => {
      if (this.#kept.get(eventId) === loading) this.#kept.delete(eventId);
    });
    this.#kept.set(eventId, loading);
    if (this.#kept.size > KEPT_EVENTS) this.#kept.delete(this.#kept.keys().next().value!);
    return loading;
  }
}
