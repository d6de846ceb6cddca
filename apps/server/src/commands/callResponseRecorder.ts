import { type CallAnswerRequest, type CallEventOption, CallTreeEventName } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import { audit } from '../audit/audit.ts';
import { eventTotals } from '../calltree/totals.ts';
import { isPostgres } from '../db/engine.ts';
import type { Database } from '../db/index.ts';
import type { CallAnswerRow, CallEventRow, UserRow } from '../db/schema.ts';
import { recordEvent } from '../events/eventLog.ts';
import { AppError, invalid } from '../http/errors.ts';
import { newId, now } from '../ids.ts';
import { snapshotChain } from '../policies/calltree.ts';

/** How far ahead of the server's clock a device's clock may be before its answer time is refused. */
const CLOCK_SKEW_MS = 2 * 60 * 1000;

/** The recorded answer, and whether it was already recorded under the same client-made id. */
export interface RecordedAnswer {
  answer: CallAnswerRow;
  replayed: boolean;
}

/**
 * Records an answer for a targeted person (the caller has checked that the actor is the person or a
 * manager above them in the snapshot). Idempotent by the client-made id. Every answer is kept; the
 * person's current answer is their own latest one (by the time it was made, so an answer queued
 * offline does not override a newer one), or else the latest answer on their behalf. A manager may
 * answer only for a person who has not answered themselves.
 */
export async function callResponseRecorder(
  trx: Kysely<Database>,
  actor: UserRow,
  event: CallEventRow,
  personId: string,
  input: CallAnswerRequest,
): Promise<RecordedAnswer> {
  const earlier = await findByClientId(trx, event.id, input.id);
  if (earlier) return replay(earlier, actor, personId);
  if (event.status !== 'running') {
    throw new AppError(
      'conflict',
      'This event is closed; answers are frozen. Contact your manager directly.',
    );
  }
  const options = JSON.parse(event.options) as CallEventOption[];
  const option = options.find((o) => o.id === input.optionId);
  if (!option) {
    throw invalid(
      'body.optionId',
      `must be one of this event's options: ${options.map((o) => o.id).join(', ')}`,
    );
  }
  const onBehalf = actor.id !== personId;
  if (onBehalf && !input.reachedVia) {
    throw invalid('body.reachedVia', 'say how you reached the person (phone, in_person, message or other)');
  }
  const recordedAt = now();
  const answeredAt = boundedAnswerTime(input.answeredAt, event.started_at, recordedAt);

  let targetQuery = trx
    .selectFrom('call_event_targets')
    .selectAll()
    .where('event_id', '=', event.id)
    .where('user_id', '=', personId);
  // Concurrent answers for the same person take turns (SQLite has one writer already).
  if (isPostgres(trx)) targetQuery = targetQuery.forUpdate();
  const target = await targetQuery.executeTakeFirstOrThrow();
  const hasOwnAnswer = target.status !== 'no_answer' && target.on_behalf === 0;
  if (onBehalf && hasOwnAnswer) {
    throw new AppError('conflict', 'This person has answered for themselves; their own answer stands.');
  }

  const row: CallAnswerRow = {
    id: newId(),
    client_id: input.id,
    event_id: event.id,
    user_id: personId,
    answered_by: actor.id,
    on_behalf: onBehalf ? 1 : 0,
    reached_via: onBehalf ? (input.reachedVia ?? null) : null,
    option_id: option.id,
    status: option.needsHelp ? 'need_help' : 'safe',
    note: input.note || null,
    location: input.location || null,
    answered_at: answeredAt,
    recorded_at: recordedAt,
  };
  const inserted = await trx
    .insertInto('call_answers')
    .values(row)
    .onConflict((oc) => oc.columns(['event_id', 'client_id']).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
    // A retry of the same answer won the race: answer with what it recorded.
    return replay((await findByClientId(trx, event.id, input.id))!, actor, personId);
  }

  const becomesCurrent =
    target.status === 'no_answer' ||
    (!onBehalf && target.on_behalf === 1) ||
    answeredAt >= (target.answered_at ?? '');
  if (becomesCurrent) {
    await trx
      .updateTable('call_event_targets')
      .set({
        status: row.status,
        option_id: row.option_id,
        answer_id: row.id,
        answered_at: answeredAt,
        on_behalf: row.on_behalf,
        first_answered_at:
          target.first_answered_at && target.first_answered_at < answeredAt
            ? target.first_answered_at
            : answeredAt,
        next_escalation_at: null,
      })
      .where('event_id', '=', event.id)
      .where('user_id', '=', personId)
      .execute();
  }
  const totals = (await eventTotals(trx, [event.id])).get(event.id);
  await recordEvent(trx, {
    room: `callevent:${event.id}`,
    type: CallTreeEventName.answered,
    payload: {
      eventId: event.id,
      personId,
      answerId: row.id,
      status: row.status,
      optionId: row.option_id,
      onBehalf,
      answeredById: actor.id,
      answeredAt,
      current: becomesCurrent,
      totals,
      // Who may receive it live: those who run the event and this chain (policies/calltree.ts).
      chain: await snapshotChain(trx, event.id, personId),
    },
    actorId: actor.id,
  });
  if (onBehalf) {
    // Answering for someone else is audited: who answered, for whom, and how they reached them.
    await audit(trx, {
      actorId: actor.id,
      action: 'callevent.answered_on_behalf',
      target: `callevent:${event.id}`,
      details: { personId, answerId: row.id, status: row.status, reachedVia: row.reached_via },
      client: null,
    });
  }
  return { answer: row, replayed: false };
}

async function findByClientId(
  trx: Kysely<Database>,
  eventId: string,
  clientId: string,
): Promise<CallAnswerRow | undefined> {
  return trx
    .selectFrom('call_answers')
    .selectAll()
    .where('event_id', '=', eventId)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
}

function replay(earlier: CallAnswerRow, actor: UserRow, personId: string): RecordedAnswer {
  if (earlier.answered_by !== actor.id || earlier.user_id !== personId) {
    throw new AppError(
      'conflict',
      'This answer id was already used for another answer. Make a new id for each new answer.',
    );
  }
  return { answer: earlier, replayed: true };
}

/** The time an answer was made: the device's (for answers queued offline), within the event's life. */
function boundedAnswerTime(sent: string | undefined, startedAt: string, receivedAt: string): string {
  if (!sent) return receivedAt;
  const at = Date.parse(sent);
  const received = Date.parse(receivedAt);
  if (at > received + CLOCK_SKEW_MS) {
    throw invalid('body.answeredAt', 'is in the future; check the device clock or leave answeredAt out');
  }
  if (at < Date.parse(startedAt)) {
    throw invalid('body.answeredAt', 'is before the event started; an answer cannot be older than its event');
  }
  // A device clock slightly ahead is trusted only up to the moment the server received the answer.
  return new Date(Math.min(at, received)).toISOString();
}
