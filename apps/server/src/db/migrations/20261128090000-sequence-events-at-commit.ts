import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../migration-helpers.ts';

/**
 * PostgreSQL: the event log's sequence numbers are drawn at commit, not when the event is written.
 *
 * A writer used to take the event log's advisory lock when it wrote its events and hold it through
 * commit, so that sequence numbers became visible in commit order. The lock was then held across
 * every round trip to Node until COMMIT: under load (the crisis minute, 200 answers a second) each
 * holder waited for Node's next turn between statements, every other writer queued behind it, and
 * answers took seconds.
 *
 * Now a writer inserts its events under draft numbers (negative, from their own sequence: no reader
 * ever sees them, since they are never committed), and a deferred constraint trigger, which runs
 * inside COMMIT, takes the lock, gives the transaction's events their numbers in the order they were
 * written, and stamps their time. The lock is held for that statement and the commit's flush only,
 * with no round trip to Node. The promise is the same: a reader that has seen seq N never later finds
 * an N-1 committed after it looked. (SQLite has one writer at a time and keeps numbering on insert.)
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create sequence events_draft_seq`.execute(db);
  // One call per event, in the order they were written; each looks its draft up by primary key (a
  // set-based update of "every draft of mine" would walk the dead drafts of earlier transactions).
  // 10,000 events in one transaction take about 0.1 s here; one event, a few microseconds.
  await sql`
    create function events_sequence_at_commit() returns trigger language plpgsql as $$
    begin
      -- The event log's lock (the key writers took before), held until the commit is visible.
      perform pg_advisory_xact_lock(727001);
      update events set seq = nextval('events_seq_seq'), created_at = clock_timestamp()
      where seq = new.seq;
      return null;
    end
    $$`.execute(db);
  await sql`
    create constraint trigger events_sequence_at_commit
    after insert on events
    deferrable initially deferred
    for each row when (new.seq < 0)
    execute function events_sequence_at_commit()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`drop trigger events_sequence_at_commit on events`.execute(db);
  await sql`drop function events_sequence_at_commit()`.execute(db);
  await sql`drop sequence events_draft_seq`.execute(db);
}
