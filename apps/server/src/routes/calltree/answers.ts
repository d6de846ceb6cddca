import { CallAnswer, CallAnswerRequest, CallPersonHistory, okEnvelope } from '@btalk/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authenticate } from '../../auth/authenticate.ts';
import { assertAcceptedTerms } from '../../auth/termsGate.ts';
import { loadPersonHistory, rollupScope } from '../../calltree/eventStore.ts';
import { answerCallEvent } from '../../commands/callResponseRecorder.ts';
import type { AppContext } from '../../context.ts';
import { ok } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { authorize, loadEventWithAccess } from '../../policies/calltree.ts';
import { presentAnswer, presentPersonHistory } from '../../presenters/calltree.ts';

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
        const { recorded } = await answerCallEvent(
          ctx,
          actor,
          request.params.eventId,
          personId,
          request.body,
        );
        return ok(presentAnswer(recorded.answer, actor.display_name, recorded.current));
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
        const { event, access } = await loadEventWithAccess(db, request.user, request.params.eventId);
        authorize(request.user, 'view', { event, access });
        const { people } = await rollupScope(ctx, event, request.user, access, {});
        const person = people.find((p) => p.id === request.params.personId);
        if (!person) throw new AppError('notFound', 'This person is not in your part of the event.');
        return ok(presentPersonHistory(person, await loadPersonHistory(db, event.id, person.id)));
      },
    );
  };
}
