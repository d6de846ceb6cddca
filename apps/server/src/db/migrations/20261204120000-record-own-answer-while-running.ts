import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../migration-helpers.ts';
import { up as recordCallAnswerInOneStatement } from './20261128150000-record-call-answer-in-one-statement.ts';

/**
 * PostgreSQL: `record_own_call_answer` also checks that the event is still running, in the same
 * statement, and says so in a third column (`running`). An own answer to an event this instance has
 * already seen running then needs no read of the event first (`commands/callResponseRecorder.ts`):
 * one round trip fewer in the crisis minute. When the event is closed nothing is written and the
 * caller takes the path that reads the event (a retry of an earlier answer, or 409).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await dropFunction(db);
  await sql`
    create function record_own_call_answer(
      p_id text, p_client_id text, p_event_id text, p_user_id text, p_option_id text,
      p_status text, p_note text, p_location text, p_answered_at timestamptz,
      p_recorded_at timestamptz, p_payload jsonb
    ) returns table (recorded boolean, current boolean, running boolean) language plpgsql as $$
    declare
      t call_event_targets%rowtype;
      is_current boolean;
    begin
      -- Concurrent answers for the same person take turns.
      select * into strict t from call_event_targets
      where event_id = p_event_id and user_id = p_user_id for update;
      perform 1 from call_events where id = p_event_id and status = 'running';
      if not found then
        return query select false, false, false;
        return;
      end if;
      insert into call_answers (id, client_id, event_id, user_id, answered_by, on_behalf, reached_via,
        option_id, status, note, location, answered_at, recorded_at)
      values (p_id, p_client_id, p_event_id, p_user_id, p_user_id, 0, null, p_option_id, p_status,
        p_note, p_location, p_answered_at, p_recorded_at)
      on conflict (event_id, client_id) do nothing;
      if not found then
        return query select false, false, true;
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
      return query select true, is_current, true;
    end
    $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await dropFunction(db);
  await recordCallAnswerInOneStatement(db);
}

function dropFunction(db: Kysely<unknown>) {
  return sql`drop function record_own_call_answer(text, text, text, text, text, text, text, text, timestamptz, timestamptz, jsonb)`.execute(
    db,
  );
}
