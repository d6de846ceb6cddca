import {
  CallBranchList,
  CallBranchQuery,
  CallEventDetail,
  CallEventPage,
  CallEventReport,
  CallEventSummary,
  CallPeoplePage,
  CallPeopleQuery,
  CallReminderResponse,
  CallRollupQuery,
  ListCallEventsQuery,
  okEnvelope,
  StartCallEventRequest,
} from '@btalk/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authenticate } from '../../auth/authenticate.ts';
import {
  currentAnswer,
  loadEvent,
  loadEventReportFacts,
  pendingEventsFor,
  rollupScope,
} from '../../calltree/eventStore.ts';
import { loadTree } from '../../calltree/treeStore.ts';
import { callEventCloser } from '../../commands/callEventCloser.ts';
import { callEventStarter } from '../../commands/callEventStarter.ts';
import { callReminderSender } from '../../commands/callReminderSender.ts';
import { transact } from '../../commands/transact.ts';
import type { AppContext } from '../../context.ts';
import { type CursorValues, decodeCursor, pageOf } from '../../http/cursor.ts';
import { ok } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { now } from '../../ids.ts';
import {
  authorize,
  eventAbilities,
  loadEventWithAccess,
  treeAccess,
  visibleCallEvents,
} from '../../policies/calltree.ts';
import {
  branchTree,
  presentEventCsv,
  presentEventDetail,
  presentEventReport,
  presentEventSummaries,
  presentEventSummary,
  presentPeoplePage,
} from '../../presenters/calltree.ts';

const TreeParams = z.object({ treeId: z.string().min(1) });
const EventParams = z.object({ eventId: z.string().min(1) });
const BranchParams = z.object({ eventId: z.string().min(1), managerId: z.string().min(1) });

/** Call-tree events: start, list, the live roll-up, close, remind non-responders, CSV report and summary. */
export function callEventRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const db = ctx.db.kysely;
  return async (app) => {
    app.addHook('onRequest', authenticate(ctx));

    app.post(
      '/calltree/trees/:treeId/events',
      {
        schema: {
          summary: 'Start an event on a tree or a branch of it; event managers and admins',
          params: TreeParams,
          body: StartCallEventRequest,
          response: { 200: okEnvelope(CallEventSummary) },
        },
      },
      async (request) => {
        const event = await transact(ctx, async (trx) => {
          const tree = await loadTree(trx, request.params.treeId);
          authorize(request.user, 'startEvent', { tree: await treeAccess(trx, request.user, tree.id) });
          return callEventStarter(trx, request.user, tree, request.body);
        });
        const [summary] = await presentEventSummaries(db, request.user, [event]);
        return ok(summary!);
      },
    );

    app.get(
      '/calltree/events',
      {
        schema: {
          summary: 'Events I may see, newest first: running ones, or past ones with their final numbers',
          querystring: ListCallEventsQuery,
          response: { 200: okEnvelope(CallEventPage) },
        },
      },
      async (request) => {
        const { user } = request;
        const { state, cursor, limit } = request.query;
        const after = decodeCursor<[string]>(cursor, ['string']);
        let query = db
          .selectFrom('call_events')
          .selectAll()
          .where('status', '=', state)
          .where(visibleCallEvents(user));
        if (after) query = query.where('id', '<', after[0]);
        const rows = await query
          .orderBy('id', 'desc')
          .limit(limit + 1)
          .execute();
        return ok(
          await pageOf(
            rows,
            limit,
            (r): CursorValues => [r.id],
            (kept) => presentEventSummaries(db, user, kept),
          ),
        );
      },
    );

    app.get(
      '/calltree/events/pending',
      {
        schema: {
          summary: 'Running events waiting for my answer (the banner on every screen)',
          response: { 200: okEnvelope(z.array(CallEventSummary)) },
        },
        // Shown on the terms screen too: people answer an emergency before accepting the terms.
        config: { termsExempt: true },
      },
      async (request) => {
        const rows = await pendingEventsFor(db, request.user.id);
        return ok(await presentEventSummaries(db, request.user, rows));
      },
    );

    app.get(
      '/calltree/events/:eventId',
      {
        schema: {
          summary: "An event with the live roll-up of the caller's scope",
          params: EventParams,
          querystring: CallRollupQuery,
          response: { 200: okEnvelope(CallEventDetail) },
        },
      },
      async (request) => {
        const { event, access, treeName } = await loadEventWithAccess(
          db,
          request.user,
          request.params.eventId,
        );
        authorize(request.user, 'view', { event, access });
        const [rollup, myAnswer] = await Promise.all([
          rollupScope(ctx, event, request.user, access, request.query),
          currentAnswer(db, access.target?.answer_id ?? null),
        ]);
        // The event's totals from the same load as the roll-up, so the two always agree.
        const summary = presentEventSummary(
          event,
          treeName,
          rollup.eventTotals,
          access.target?.status ?? null,
          eventAbilities(access, event),
        );
        return ok(presentEventDetail(summary, rollup, request.query, myAnswer));
      },
    );

    app.get(
      '/calltree/events/:eventId/people',
      {
        schema: {
          summary: "A page of the event's people in the caller's scope: need help, then no answer, then safe",
          params: EventParams,
          querystring: CallPeopleQuery,
          response: { 200: okEnvelope(CallPeoplePage) },
        },
      },
      async (request) => {
        const { event, access } = await loadEventWithAccess(db, request.user, request.params.eventId);
        authorize(request.user, 'view', { event, access });
        const { counted } = await rollupScope(ctx, event, request.user, access, request.query);
        const { status, cursor, limit } = request.query;
        return ok(presentPeoplePage(counted, status, cursor, limit));
      },
    );

    app.get(
      '/calltree/events/:eventId/branches/:managerId',
      {
        schema: {
          summary:
            "The branches directly under a branch of the caller's scope, with their counts (a branch opened on the roll-up)",
          params: BranchParams,
          querystring: CallBranchQuery,
          response: { 200: okEnvelope(CallBranchList) },
        },
      },
      async (request) => {
        const { event, access } = await loadEventWithAccess(db, request.user, request.params.eventId);
        authorize(request.user, 'view', { event, access });
        const rollup = await rollupScope(ctx, event, request.user, access, request.query);
        const { managerId } = request.params;
        const inScope =
          rollup.scope === 'event'
            ? rollup.all.has(managerId)
            : rollup.people.some((p) => p.id === managerId);
        if (!inScope) throw new AppError('notFound', 'This branch is not in your part of the event.');
        return ok({ items: branchTree(rollup, request.query.department).get(managerId) ?? [] });
      },
    );

    app.post(
      '/calltree/events/:eventId/close',
      {
        schema: {
          summary:
            'Close an event: answers and escalations stop, the numbers are final; event managers and admins',
          params: EventParams,
          response: { 200: okEnvelope(CallEventSummary) },
        },
      },
      async (request) => {
        await transact(ctx, async (trx) => {
          const { event, access } = await loadEventWithAccess(trx, request.user, request.params.eventId);
          authorize(request.user, 'close', { event, access });
          await callEventCloser(trx, request.user, event);
        });
        const event = await loadEvent(db, request.params.eventId);
        const [summary] = await presentEventSummaries(db, request.user, [event]);
        return ok(summary!);
      },
    );

    app.post(
      '/calltree/events/:eventId/reminders',
      {
        schema: {
          summary: 'Remind only the people without an answer; event managers and admins',
          params: EventParams,
          response: { 200: okEnvelope(CallReminderResponse) },
        },
      },
      async (request) => {
        const sent = await transact(ctx, async (trx) => {
          const { event, access } = await loadEventWithAccess(trx, request.user, request.params.eventId);
          authorize(request.user, 'remind', { event, access });
          return callReminderSender(trx, request.user, event);
        });
        return ok(sent);
      },
    );

    app.get(
      '/calltree/events/:eventId/report.csv',
      {
        schema: {
          summary:
            'The event as CSV (UTF-8 with a byte-order mark): person, email, phone, department, manager, status, note, location, answered at in UTC and in ORG_TIME_ZONE, answered by, escalations',
          params: EventParams,
          produces: ['text/csv'],
        },
      },
      async (request, reply) => {
        const { event, access } = await loadEventWithAccess(db, request.user, request.params.eventId);
        authorize(request.user, 'report', { event, access });
        const { people } = await rollupScope(ctx, event, request.user, access, {});
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="call-event-${event.id}.csv"`)
          .send(presentEventCsv(event, people, ctx.config.orgTimeZone));
      },
    );

    app.get(
      '/calltree/events/:eventId/summary',
      {
        schema: {
          summary: 'How fast people answered: time to 50 %, 90 % and 100 %; event managers and admins',
          params: EventParams,
          response: { 200: okEnvelope(CallEventReport) },
        },
      },
      async (request) => {
        const { event, access } = await loadEventWithAccess(db, request.user, request.params.eventId);
        authorize(request.user, 'report', { event, access });
        return ok(presentEventReport(event, await loadEventReportFacts(db, event), now()));
      },
    );
  };
}
