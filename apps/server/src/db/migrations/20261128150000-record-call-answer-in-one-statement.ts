import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../migration-helpers.ts';

/**
 * PostgreSQL: a person's own answer to a call-tree event written in one statement.
 *
 * `commands/callResponseRecorder.ts` wrote an answer in a transaction of six round trips (BEGIN, the
 * person's target row locked, the answer inserted, the target updated, the event recorded, COMMIT).
 * In the crisis minute (200 answers a second) each round trip is a socket write and a wake-up of a
 * PostgreSQL backend on the same two cores: the server's writes to PostgreSQL were 14 % of its time
 * (docs/benchmarks.md). This function does the same in one statement, in the statement's own
 * transaction: the rule of which answer is current is the TypeScript one (`recordAnswer`), written
 * again here, and the answer tests run both (SQLite takes the TypeScript path). Answers on someone's
 * behalf (rare, audited, refused when the person answered themselves) keep the TypeScript path.
 *
 * Returns one row: `recorded` false when an answer with the same client-made id is already there (a
 * retry: nothing is written), else whether the answer became the person's current one. The event's
 * payload is given without `current`, which is added here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`
    create function record_own_call_answer(
      p_id text, p_client_id text, p_event_id text, p_user_id text, p_option_id text,
      p_status text, p_note text, p_location text, p_answered_at timestamptz,
      p_recorded_at timestamptz, p_payload jsonb
    ) returns table (recorded boolean, current boolean) language plpgsql as $$
    declare
      t call_event_targets%rowtype;
      is_current boolean;
    begin
      -- Concurrent answers for the same person take turns.
      select * into strict t from call_event_targets
      where event_id = p_event_id and user_id = p_user_id for update;
      insert into call_answers (id, client_id, event_id, user_id, answered_by, on_behalf, reached_via,
        option_id, status, note, location, answered_at, recorded_at)
      values (p_id, p_client_id, p_event_id, p_user_id, p_user_id, 0, null, p_option_id, p_status,
        p_note, p_location, p_answered_at, p_recorded_at)
      on conflict (event_id, client_id) do nothing;
      if not found then
        return query select false, false;
        return;
      end if;
      -- The person's own latest answer (by the time it was made) is current; their own answer also
      -- replaces one given on their behalf.
      is_current := t.status = 'no_answer' or t.on_behalf = 1 or t.answered_at is null
        or p_answered_at >= t.answered_at;
      if is_current then
        update call_event_targets set
          status = p_status, option_id = p_option_id, answer_id = p_id, answered_at = p_answered_at,
          on_behalf = 0,
          first_answered_at = case when t.first_answered_at is not null
            and t.first_answered_at < p_answered_at then t.first_answered_at else p_answered_at end,
          next_escalation_at = null
        where event_id = p_event_id and user_id = p_user_id;
      end if;
      -- Numbered at commit, as every event (migration 20261128090000-sequence-events-at-commit).
      insert into events (seq, room, type, payload, actor_id, created_at)
      values (-nextval('events_draft_seq'), 'callevent:' || p_event_id, 'callevent.answered',
        (p_payload || jsonb_build_object('current', is_current))::text, p_user_id, p_recorded_at);
      return query select true, is_current;
    end
    $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`drop function record_own_call_answer(text, text, text, text, text, text, text, text, timestamptz, timestamptz, jsonb)`.execute(
    db,
  );
}
