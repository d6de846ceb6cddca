import { type CallAnswerRequest, type CallEventOption, CallTreeEventName } from '@btalk/contracts';
import { type Kysely, sql } from 'kysely';
import { audit } from '../audit/audit.ts';
import { currentAnswerId } from '../calltree/eventStore.ts';
import type { AppContext } from '../context.ts';
import { isPostgres } from '../db/engine.ts';
import type { Database } from '../db/index.ts';
import { reusable } from '../db/reusable.ts';
import type { CallAnswerRow, CallEventRow, UserRow } from '../db/schema.ts';
import { recordEvent } from '../events/eventLog.ts';
import { AppError, invalid } from '../http/errors.ts';
import { newId, now } from '../ids.ts';
import { authorize, authorizeAnswerFor, loadEventWithAccess } from '../policies/calltree.ts';
import { transact } from './transact.ts';

/** How far ahead of the server's clock a device's clock may be before its answer time is refused. */
const CLOCK_SKEW_MS = 2 * 60 * 1000;

/** The recorded answer (a new one, or the one already recorded under the same client-made id). */
export interface RecordedAnswer {
  answer: CallAnswerRow;
  /** Whether it is the person's current answer now. */
  current: boolean;
}

/**
 * Answers a call-tree event for `personId`: the actor themselves, or a person below them in the
 * event's snapshot. Idempotent by the client-made id. Every answer is kept; the person's current
 * answer is their own latest one (by the time it was made, so an answer queued offline does not
 * override a newer one), or else the latest answer on their behalf. A manager may answer only for a
 * person who has not answered themselves. The one command behind the API and the Teams card.
 *
 * The checks read first, outside the transaction: the event with the caller's access (one query) and
 * the person's manager chain in the snapshot (kept per event, calltree/snapshots.ts), none of which
 * an answer changes. The transaction then holds a database connection for its writes only (in the
 * crisis minute, hundreds of answers a second share a pool of ten); a retry under the same
 * client-made id is recognised by its insert.
 */
export async function answerCallEvent(
  ctx: AppContext,
  actor: UserRow,
  eventId: string,
  personId: string,
  input: CallAnswerRequest,
): Promise<{ event: CallEventRow; recorded: RecordedAnswer }> {
  const db = ctx.db.kysely;
  // A person's own answer to an event seen running: no read of the event first, the statement that
  // writes the answer checks it is still running (else the path below, which reads it).
  const seen = actor.id === personId && isPostgres(db) ? ctx.snapshots.runningEvent(eventId) : undefined;
  if (seen) {
    const chain = await ctx.snapshots.chain(db, seen.id, personId);
    // An answer refused here (a bad option) is refused below, in the order the checks run there.
    const row = chain.length > 0 ? validAnswerRow(seen, actor, personId, input) : undefined;
    if (row) {
      const recorded = await recordOwnAnswer(ctx, row, chain);
      if (recorded !== 'closed')
        return { event: seen, recorded: await orRetried(db, recorded, seen, actor, personId, input) };
    }
  }
  const { event, access } = await loadEventWithAccess(db, actor, eventId);
  ctx.snapshots.sawEvent(event);
  authorize(actor, 'view', { event, access });
  // The chain starts with the person: empty when the event does not target them.
  const chain = await ctx.snapshots.chain(db, event.id, personId);
  if (chain.length === 0) {
    throw new AppError(
      'notFound',
      'This person is not targeted by the event. Check who you are answering for.',
    );
  }
  authorizeAnswerFor(actor.id, personId, chain);
  if (event.status !== 'running')
    return { event, recorded: await toClosed(db, event, actor, personId, input) };
  const row = answerRow(event, actor, personId, input);
  const onBehalf = row.on_behalf === 1;
  const recorded =
    !onBehalf && isPostgres(db)
      ? await recordOwnAnswer(ctx, row, chain)
      : await transact(ctx, (trx) => recordAnswer(trx, row, chain));
  // Closed since it was read: answered as a closed event is.
  if (recorded === 'closed') return { event, recorded: await toClosed(db, event, actor, personId, input) };
  return { event, recorded: await orRetried(db, recorded, event, actor, personId, input) };
}

/** An answer to a closed event: a retry of one recorded before it closed is answered as recorded, else 409. */
async function toClosed(
  db: Kysely<Database>,
  event: CallEventRow,
  actor: UserRow,
  personId: string,
  input: CallAnswerRequest,
): Promise<RecordedAnswer> {
  const earlier = await findByClientId(db, event.id, input.id);
  if (earlier) return replay(db, earlier, actor, personId);
  throw new AppError('conflict', 'This event is closed; answers are frozen. Contact your manager directly.');
}

/** The answer just recorded, or (undefined) the one a retry with the same client-made id recorded first. */
async function orRetried(
  db: Kysely<Database>,
  recorded: RecordedAnswer | undefined,
  event: CallEventRow,
  actor: UserRow,
  personId: string,
  input: CallAnswerRequest,
): Promise<RecordedAnswer> {
  if (recorded) return recorded;
  return replay(db, (await findByClientId(db, event.id, input.id))!, actor, personId);
}

/** The answer `input` makes, checked against the event's options; refuses a bad one (400). */
function answerRow(
  event: CallEventRow,
  actor: UserRow,
  personId: string,
  input: CallAnswerRequest,
): CallAnswerRow {
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
    answered_at: boundedAnswerTime(input.answeredAt, event.started_at, recordedAt),
    recorded_at: recordedAt,
  };
  return row;
}

/** `answerRow`, or undefined when it would be refused. */
function validAnswerRow(
  event: CallEventRow,
  actor: UserRow,
  personId: string,
  input: CallAnswerRequest,
): CallAnswerRow | undefined {
  try {
    return answerRow(event, actor, personId, input);
  } catch (error) {
    if (error instanceof AppError) return undefined;
    throw error;
  }
}

/**
 * Writes an answer and what follows from it, in the caller's transaction: the person's current
 * answer, the `callevent.answered` event, and the audit of an answer on someone's behalf. Undefined
 * when a retry of the same answer (same client-made id) won the race.
 *
 * The event carries no counts: counting an event's 10,000 targets on every answer was most of
 * PostgreSQL's work in the crisis minute (docs/benchmarks.md); the roll-ups count when they are read.
 */
async function recordAnswer(
  trx: Kysely<Database>,
  row: CallAnswerRow,
  chain: string[],
): Promise<RecordedAnswer | undefined> {
  const onBehalf = row.on_behalf === 1;
  const [target] = await targetOf(trx, row.event_id, row.user_id);
  if (!target) throw new Error(`no target ${row.user_id} in call event ${row.event_id}`);
  // A retry (the same client-made id) is found here rather than by a read before the transaction:
  // one statement fewer for every answer. Refused below, the insert is rolled back with the rest.
  const inserted = await insertAnswer(
    trx,
    row.id,
    row.client_id,
    row.event_id,
    row.user_id,
    row.answered_by,
    row.on_behalf,
    row.reached_via,
    row.option_id,
    row.status,
    row.note,
    row.location,
    row.answered_at,
    row.recorded_at,
  );
  if (inserted.length === 0) return undefined;
  if (onBehalf && target.status !== 'no_answer' && target.on_behalf === 0) {
    throw new AppError('conflict', 'This person has answered for themselves; their own answer stands.');
  }

  const answeredAt = row.answered_at;
  const becomesCurrent =
    target.status === 'no_answer' ||
    (!onBehalf && target.on_behalf === 1) ||
    answeredAt >= (target.answered_at ?? '');
  if (becomesCurrent) {
    await makeCurrent(
      trx,
      row.event_id,
      row.user_id,
      row.status,
      row.option_id,
      row.id,
      answeredAt,
      row.on_behalf,
      target.first_answered_at && target.first_answered_at < answeredAt
        ? target.first_answered_at
        : answeredAt,
    );
  }
  await recordEvent(trx, {
    room: `callevent:${row.event_id}`,
    type: CallTreeEventName.answered,
    payload: { ...answeredPayload(row, chain), current: becomesCurrent },
    actorId: row.answered_by,
  });
  if (onBehalf) {
    // Answering for someone else is audited: who answered, for whom, and how they reached them.
    await audit(trx, {
      actorId: row.answered_by,
      action: 'callevent.answered_on_behalf',
      target: `callevent:${row.event_id}`,
      details: { personId: row.user_id, answerId: row.id, status: row.status, reachedVia: row.reached_via },
      client: null,
    });
  }
  return { answer: row, current: becomesCurrent };
}

/** The person's row of the event, locked on PostgreSQL: concurrent answers for one person take turns. */
const targetOf = reusable((trx: Kysely<Database>, eventId: string, userId: string) => {
  const query = trx
    .selectFrom('call_event_targets')
    .selectAll()
    .where('event_id', '=', eventId)
    .where('user_id', '=', userId);
  // SQLite has one writer at a time already.
  return isPostgres(trx) ? query.forUpdate() : query;
});

/** Inserts an answer; no row back when its client-made id was used already (a retry). */
const insertAnswer = reusable(
  (
    trx: Kysely<Database>,
    id: string,
    clientId: string,
    eventId: string,
    userId: string,
    answeredBy: string,
    onBehalf: number,
    reachedVia: CallAnswerRow['reached_via'],
    optionId: string,
    status: CallAnswerRow['status'],
    note: string | null,
    location: string | null,
    answeredAt: string,
    recordedAt: string,
  ) =>
    trx
      .insertInto('call_answers')
      .values({
        id,
        client_id: clientId,
        event_id: eventId,
        user_id: userId,
        answered_by: answeredBy,
        on_behalf: onBehalf,
        reached_via: reachedVia,
        option_id: optionId,
        status,
        note,
        location,
        answered_at: answeredAt,
        recorded_at: recordedAt,
      })
      .onConflict((oc) => oc.columns(['event_id', 'client_id']).doNothing())
      .returning('id'),
);

/** Makes an answer the person's current one (and stops their escalation). */
const makeCurrent = reusable(
  (
    trx: Kysely<Database>,
    eventId: string,
    userId: string,
    status: CallAnswerRow['status'],
    optionId: string,
    answerId: string,
    answeredAt: string,
    onBehalf: number,
    firstAnsweredAt: string,
  ) =>
    trx
      .updateTable('call_event_targets')
      .set({
        status,
        option_id: optionId,
        answer_id: answerId,
        answered_at: answeredAt,
        on_behalf: onBehalf,
        first_answered_at: firstAnsweredAt,
        next_escalation_at: null,
      })
      .where('event_id', '=', eventId)
      .where('user_id', '=', userId),
);

/** The `callevent.answered` event's payload, but whether the answer became current. */
function answeredPayload(row: CallAnswerRow, chain: string[]) {
  return {
    eventId: row.event_id,
    personId: row.user_id,
    answerId: row.id,
    status: row.status,
    optionId: row.option_id,
    onBehalf: row.on_behalf === 1,
    answeredById: row.answered_by,
    answeredAt: row.answered_at,
    // Who may receive it live: those who run the event and this chain (policies/calltree.ts).
    chain,
  };
}

/**
 * PostgreSQL: `recordAnswer` for a person's own answer in one statement, its own transaction
 * (`record_own_call_answer`, migration 20261128150000-record-call-answer-in-one-statement): one
 * round trip instead of six. Undefined when a retry of the same answer was there first.
 */
async function recordOwnAnswer(
  ctx: AppContext,
  row: CallAnswerRow,
  chain: string[],
): Promise<RecordedAnswer | undefined | 'closed'> {
  const { rows } = await sql<{ recorded: boolean; current: boolean; running: boolean }>`
    select * from record_own_call_answer(${row.id}::text, ${row.client_id}::text, ${row.event_id}::text,
      ${row.user_id}::text, ${row.option_id}::text, ${row.status}::text, ${row.note}::text,
      ${row.location}::text, ${row.answered_at}::timestamptz, ${row.recorded_at}::timestamptz,
      ${JSON.stringify(answeredPayload(row, chain))}::jsonb)`.execute(ctx.db.kysely);
  const result = rows[0]!;
  if (!result.running) return 'closed';
  ctx.bus.committed();
  return result.recorded ? { answer: row, current: result.current } : undefined;
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

/** The answer already recorded under the same client-made id, if it is the same answer. */
async function replay(
  db: Kysely<Database>,
  earlier: CallAnswerRow,
  actor: UserRow,
  personId: string,
): Promise<RecordedAnswer> {
  if (earlier.answered_by !== actor.id || earlier.user_id !== personId) {
    throw new AppError(
      'conflict',
      'This answer id was already used for another answer. Make a new id for each new answer.',
    );
  }
  const current = await currentAnswerId(db, earlier.event_id, personId);
  return { answer: earlier, current: current === earlier.id };
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
