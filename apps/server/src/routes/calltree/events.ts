import {
  CallEventDetail,
  type CallEventOption,
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
import { toCsv } from '../../calltree/csv.ts';
import { currentAnswer, eventSummaries, loadEvent, rollupScope } from '../../calltree/eventStore.ts';
import { attentionOrder, branchesOf, pageOf, secondsToShare, totalsOf } from '../../calltree/rollup.ts';
import { eventTotals } from '../../calltree/totals.ts';
import { loadTree } from '../../calltree/treeStore.ts';
import { callEventCloser } from '../../commands/callEventCloser.ts';
import { callEventStarter } from '../../commands/callEventStarter.ts';
import { callReminderSender } from '../../commands/callReminderSender.ts';
import { transact } from '../../commands/transact.ts';
import type { AppContext } from '../../context.ts';
import { ok } from '../../http/envelope.ts';
import { invalid } from '../../http/errors.ts';
import { authorizeEvent, authorizeTree, eventAccess, treeAccess } from '../../policies/calltree.ts';
import { presentCallPerson } from '../../presenters/calltree.ts';

const TreeParams = z.object({ treeId: z.string().min(1) });
const EventParams = z.object({ eventId: z.string().min(1) });

const STATUS_LABEL = { safe: 'Safe', need_help: 'Need help', no_answer: 'No answer' } as const;

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
          authorizeTree(await treeAccess(trx, request.user, tree.id), 'startEvent');
          return callEventStarter(trx, request.user, tree, request.body);
        });
        const [summary] = await eventSummaries(db, request.user, [event]);
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
        const user = request.user;
        const { state, cursor, limit } = request.query;
        let query = db.selectFrom('call_events').selectAll().where('status', '=', state);
        if (user.role !== 'admin') {
          query = query.where((eb) =>
            eb.or([
              eb(
                'tree_id',
                'in',
                eb.selectFrom('call_tree_managers').select('tree_id').where('user_id', '=', user.id),
              ),
              eb(
                'id',
                'in',
                eb.selectFrom('call_event_targets').select('event_id').where('user_id', '=', user.id),
              ),
            ]),
          );
        }
        if (cursor) {
          const after = Buffer.from(cursor, 'base64url').toString('utf8');
          if (!/^[\w-]{8,64}$/.test(after))
            throw invalid('query.cursor', 'is not a cursor this list gave out');
          query = query.where('id', '<', after);
        }
        const rows = await query
          .orderBy('id', 'desc')
          .limit(limit + 1)
          .execute();
        const page = rows.slice(0, limit);
        return ok({
          items: await eventSummaries(db, user, page),
          nextCursor: rows.length > limit ? Buffer.from(page.at(-1)!.id).toString('base64url') : null,
        });
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
        const rows = await db
          .selectFrom('call_events as e')
          .innerJoin('call_event_targets as t', 't.event_id', 'e.id')
          .selectAll('e')
          .where('t.user_id', '=', request.user.id)
          .where('t.status', '=', 'no_answer')
          .where('e.status', '=', 'running')
          .orderBy('e.id', 'desc')
          .execute();
        return ok(await eventSummaries(db, request.user, rows));
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
        const event = await loadEvent(db, request.params.eventId);
        const access = await eventAccess(db, request.user, event);
        authorizeEvent(access, event, 'view');
        const { scope, people, counted } = await rollupScope(db, event, request.user, access, request.query);
        const { totals, byOption } = totalsOf(counted);
        const departments = new Map<string, number>();
        for (const p of people) {
          if (p.department) departments.set(p.department, (departments.get(p.department) ?? 0) + 1);
        }
        const listed = request.query.status
          ? counted.filter((p) => p.status === request.query.status)
          : counted;
        const page = pageOf(attentionOrder(listed), undefined, 100);
        const [summary] = await eventSummaries(db, request.user, [event]);
        return ok({
          ...summary!,
          scope,
          scopeTotals: totals,
          byOption,
          branches: branchesOf(people, counted),
          departments: [...departments]
            .map(([name, count]) => ({ name, count }))
            .sort((a, b) => a.name.localeCompare(b.name)),
          people: { items: page.items.map(presentCallPerson), nextCursor: page.nextCursor },
          myAnswer: await currentAnswer(db, access.target?.answer_id ?? null),
        });
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
        const event = await loadEvent(db, request.params.eventId);
        const access = await eventAccess(db, request.user, event);
        authorizeEvent(access, event, 'view');
        const { counted } = await rollupScope(db, event, request.user, access, request.query);
        const listed = request.query.status
          ? counted.filter((p) => p.status === request.query.status)
          : counted;
        const page = pageOf(attentionOrder(listed), request.query.cursor, request.query.limit);
        return ok({ items: page.items.map(presentCallPerson), nextCursor: page.nextCursor });
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
          const event = await loadEvent(trx, request.params.eventId);
          authorizeEvent(await eventAccess(trx, request.user, event), event, 'close');
          await callEventCloser(trx, request.user, event);
        });
        const event = await loadEvent(db, request.params.eventId);
        const [summary] = await eventSummaries(db, request.user, [event]);
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
          const event = await loadEvent(trx, request.params.eventId);
          authorizeEvent(await eventAccess(trx, request.user, event), event, 'remind');
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
            'The event as CSV: person, email, department, manager, status, note, answered at, answered by, escalations',
          params: EventParams,
          produces: ['text/csv'],
        },
      },
      async (request, reply) => {
        const event = await loadEvent(db, request.params.eventId);
        const access = await eventAccess(db, request.user, event);
        authorizeEvent(access, event, 'report');
        const { people } = await rollupScope(db, event, request.user, access, {});
        const options = new Map((JSON.parse(event.options) as CallEventOption[]).map((o) => [o.id, o.label]));
        const rows = attentionOrder(people).map((p) => [
          p.displayName,
          p.email,
          p.department,
          p.managerName,
          p.optionId ? (options.get(p.optionId) ?? STATUS_LABEL[p.status]) : STATUS_LABEL[p.status],
          p.note,
          p.answeredAt,
          p.answeredByName
            ? p.onBehalf
              ? `${p.answeredByName} (on behalf${p.onBehalfReachedVia ? `, ${p.onBehalfReachedVia.replace('_', ' ')}` : ''})`
              : p.answeredByName
            : null,
          p.escalations,
        ]);
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="call-event-${event.id}.csv"`)
          .send(
            toCsv(
              [
                'person',
                'email',
                'department',
                'manager',
                'status',
                'note',
                'answered at',
                'answered by',
                'escalations',
              ],
              rows,
            ),
          );
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
        const event = await loadEvent(db, request.params.eventId);
        authorizeEvent(await eventAccess(db, request.user, event), event, 'report');
        const [firsts, onBehalf, escalations, totals] = await Promise.all([
          db
            .selectFrom('call_event_targets')
            .select('first_answered_at')
            .where('event_id', '=', event.id)
            .where('first_answered_at', 'is not', null)
            .execute(),
          db
            .selectFrom('call_answers')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('event_id', '=', event.id)
            .where('on_behalf', '=', 1)
            .executeTakeFirstOrThrow(),
          db
            .selectFrom('call_escalations')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('event_id', '=', event.id)
            .executeTakeFirstOrThrow(),
          eventTotals(db, [event.id]),
        ]);
        const times = firsts.map((f) => f.first_answered_at!);
        const end = event.closed_at ?? new Date().toISOString();
        return ok({
          totals: totals.get(event.id)!,
          secondsTo50: secondsToShare(times, event.target_count, 0.5, event.started_at),
          secondsTo90: secondsToShare(times, event.target_count, 0.9, event.started_at),
          secondsTo100: secondsToShare(times, event.target_count, 1, event.started_at),
          onBehalf: Number(onBehalf.n),
          escalations: Number(escalations.n),
          durationSeconds: (Date.parse(end) - Date.parse(event.started_at)) / 1000,
        });
      },
    );
  };
}
