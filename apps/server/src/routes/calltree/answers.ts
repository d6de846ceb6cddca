import { CallAnswer, CallAnswerRequest, CallPersonHistory, okEnvelope } from '@btalk/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authenticate } from '../../auth/authenticate.ts';
import { assertAcceptedTerms } from '../../auth/termsGate.ts';
import { loadEvent, rollupScope } from '../../calltree/eventStore.ts';
import { callResponseRecorder } from '../../commands/callResponseRecorder.ts';
import { transact } from '../../commands/transact.ts';
import type { AppContext } from '../../context.ts';
import { ok } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { authorizeEvent, eventAccess, mayAnswerFor } from '../../policies/calltree.ts';
import { presentAnswer, presentCallPerson } from '../../presenters/calltree.ts';

const EventParams = z.object({ eventId: z.string().min(1) });
const PersonParams = z.object({ eventId: z.string().min(1), personId: z.string().min(1) });

/** Answers to call-tree events (one's own, or a manager's on behalf of a report) and a person's history. */
export function callAnswerRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const db = ctx.db.kysely;
  return async (app) => {
    app.addHook('onRequest', authenticate(ctx));

    app.post(
      '/calltree/events/:eventId/answers',
      {
        schema: {
          summary:
            'Answer an event for oneself, or for a report as their manager; idempotent by the client-made id',
          params: EventParams,
          body: CallAnswerRequest,
          response: { 200: okEnvelope(CallAnswer) },
        },
        // A person reached by an emergency answers before accepting the terms of use; answering
        // on behalf of someone else still needs them (below).
        config: { termsExempt: true },
      },
      async (request) => {
        const actor = request.user;
        const personId = request.body.personId ?? actor.id;
        if (personId !== actor.id) await assertAcceptedTerms(ctx.terms, actor);
        const recorded = await transact(ctx, async (trx) => {
          const event = await loadEvent(trx, request.params.eventId);
          const access = await eventAccess(trx, actor, event);
          authorizeEvent(access, event, 'view');
          const target = await trx
            .selectFrom('call_event_targets')
            .select('user_id')
            .where('event_id', '=', event.id)
            .where('user_id', '=', personId)
            .executeTakeFirst();
          if (!target) {
            throw new AppError(
              'notFound',
              'This person is not targeted by the event. Check who you are answering for.',
            );
          }
          if (!(await mayAnswerFor(trx, event.id, actor.id, personId))) {
            throw new AppError(
              'forbidden',
              'Only the person or a manager above them in this event may answer for them.',
            );
          }
          return callResponseRecorder(trx, actor, event, personId, request.body);
        });
        const current = await db
          .selectFrom('call_event_targets')
          .select('answer_id')
          .where('event_id', '=', request.params.eventId)
          .where('user_id', '=', personId)
          .executeTakeFirstOrThrow();
        return ok(
          presentAnswer(recorded.answer, actor.display_name, current.answer_id === recorded.answer.id),
        );
      },
    );

    app.get(
      '/calltree/events/:eventId/people/:personId',
      {
        schema: {
          summary: "One person's answers and escalations in an event (within the caller's scope)",
          params: PersonParams,
          response: { 200: okEnvelope(CallPersonHistory) },
        },
      },
      async (request) => {
        const event = await loadEvent(db, request.params.eventId);
        const access = await eventAccess(db, request.user, event);
        authorizeEvent(access, event, 'view');
        const { people } = await rollupScope(db, event, request.user, access, {});
        const person = people.find((p) => p.id === request.params.personId);
        if (!person) throw new AppError('notFound', 'This person is not in your part of the event.');
        const [answers, escalations] = await Promise.all([
          db
            .selectFrom('call_answers as a')
            .innerJoin('users as u', 'u.id', 'a.answered_by')
            .selectAll('a')
            .select('u.display_name as answered_by_name')
            .where('a.event_id', '=', event.id)
            .where('a.user_id', '=', person.id)
            .orderBy('a.id')
            .execute(),
          db
            .selectFrom('call_escalations as x')
            .innerJoin('users as u', 'u.id', 'x.notified_user_id')
            .select(['x.level', 'x.notified_user_id', 'x.created_at', 'u.display_name'])
            .where('x.event_id', '=', event.id)
            .where('x.user_id', '=', person.id)
            .orderBy('x.level')
            .execute(),
        ]);
        const currentId = await db
          .selectFrom('call_event_targets')
          .select('answer_id')
          .where('event_id', '=', event.id)
          .where('user_id', '=', person.id)
          .executeTakeFirstOrThrow();
        return ok({
          person: presentCallPerson(person),
          answers: answers.map((a) => presentAnswer(a, a.answered_by_name, a.id === currentId.answer_id)),
          escalations: escalations.map((x) => ({
            level: x.level,
            notifiedUserId: x.notified_user_id,
            notifiedName: x.display_name,
            createdAt: x.created_at,
          })),
        });
      },
    );
  };
}
