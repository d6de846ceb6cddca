import {
  AddMembersRequest,
  MemberParams,
  okEnvelope,
  PageQuery,
  TopicMember,
  TopicMemberPage,
  TopicParams,
  UpdateMemberRequest,
} from '@btalk/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authenticate } from '../../auth/authenticate.ts';
import { memberAdder, memberRemover, memberRoleChanger } from '../../commands/topicMembership.ts';
import { transact } from '../../commands/transact.ts';
import type { AppContext } from '../../context.ts';
import { type CursorValues, decodeCursor, pageOf } from '../../http/cursor.ts';
import { ok } from '../../http/envelope.ts';
import { authorize, requireVisibleTopic } from '../../policies/topic.ts';
import { presentPerson } from '../../presenters/person.ts';

/** Members of a topic: list, add, change role, remove, leave. */
export function memberRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', authenticate(ctx));

    app.get(
      '/topics/:topicId/members',
      {
        schema: {
          summary: 'Members of a topic: owners first, then by name',
          params: TopicParams,
          querystring: PageQuery,
          response: { 200: okEnvelope(TopicMemberPage) },
        },
      },
      async (request) => {
        const { topicId } = request.params;
        const { cursor, limit } = request.query;
        await requireVisibleTopic(ctx.db.kysely, request.user, topicId);
        // Sort key: 0 for owners, 1 for members; then name and id.
        const after = decodeCursor<[number, string, string]>(cursor, ['number', 'string', 'string']);
        const rank = (role: string) => (role === 'owner' ? 0 : 1);
        let query = ctx.db.kysely
          .selectFrom('topic_members as m')
          .innerJoin('users as u', 'u.id', 'm.user_id')
          .select(['m.role', 'm.created_at', 'u.id', 'u.display_name', 'u.email', 'u.department'])
          .select((eb) => eb.case().when('m.role', '=', 'owner').then(0).else(1).end().as('rank'))
          .where('m.topic_id', '=', topicId);
        if (after) {
          const [r, name, id] = after;
          query = query.where((eb) => {
            const rankExpr = eb.case().when('m.role', '=', 'owner').then(0).else(1).end();
            return eb.or([
              eb(rankExpr, '>', r),
              eb.and([eb(rankExpr, '=', r), eb('u.display_name', '>', name)]),
              eb.and([eb(rankExpr, '=', r), eb('u.display_name', '=', name), eb('u.id', '>', id)]),
            ]);
          });
        }
        const rows = await query
          .orderBy('rank')
          .orderBy('u.display_name')
          .orderBy('u.id')
          .limit(limit + 1)
          .execute();
        return ok(
          await pageOf(
            rows,
            limit,
            (r): CursorValues => [rank(r.role), r.display_name, r.id],
            (kept) => kept.map((r) => ({ person: presentPerson(r), role: r.role, addedAt: r.created_at })),
          ),
        );
      },
    );

    app.post(
      '/topics/:topicId/members',
      {
        schema: {
          summary: 'Add people to a topic (owners and admins)',
          params: TopicParams,
          body: AddMembersRequest,
          response: { 200: okEnvelope(z.object({ added: z.array(TopicMember) })) },
        },
      },
      async (request) => {
        const { user } = request;
        const { topicId } = request.params;
        const added = await transact(ctx, async (trx) => {
          const access = await requireVisibleTopic(trx, user, topicId);
          authorize(user, 'manageMembers', access);
          return memberAdder(trx, user, access.topic, request.body.userIds, request.body.role);
        });
        const rows =
          added.length === 0
            ? []
            : await ctx.db.kysely
                .selectFrom('topic_members as m')
                .innerJoin('users as u', 'u.id', 'm.user_id')
                .select(['m.role', 'm.created_at', 'u.id', 'u.display_name', 'u.email', 'u.department'])
                .where('m.topic_id', '=', topicId)
                .where('m.user_id', 'in', added)
                .execute();
        return ok({
          added: rows.map((r) => ({ person: presentPerson(r), role: r.role, addedAt: r.created_at })),
        });
      },
    );

    app.patch(
      '/topics/:topicId/members/:userId',
      {
        schema: {
          summary: 'Change a member’s role (owners and admins)',
          params: MemberParams,
          body: UpdateMemberRequest,
          response: { 200: okEnvelope(z.object({ userId: z.string(), role: z.enum(['owner', 'member']) })) },
        },
      },
      async (request) => {
        const { user } = request;
        const { topicId, userId } = request.params;
        await transact(ctx, async (trx) => {
          const access = await requireVisibleTopic(trx, user, topicId);
          authorize(user, 'manageMembers', access);
          await memberRoleChanger(trx, user, access.topic, userId, request.body.role);
        });
        return ok({ userId, role: request.body.role });
      },
    );

    app.delete(
      '/topics/:topicId/members/:userId',
      {
        schema: {
          summary: 'Remove a member (owners and admins), or leave (your own user id)',
          params: MemberParams,
          response: { 200: okEnvelope(z.object({ removed: z.string() })) },
        },
      },
      async (request) => {
        const { user } = request;
        const { topicId, userId } = request.params;
        await transact(ctx, async (trx) => {
          const access = await requireVisibleTopic(trx, user, topicId);
          authorize(user, userId === user.id ? 'leave' : 'manageMembers', access);
          await memberRemover(trx, user, access.topic, userId);
        });
        return ok({ removed: userId });
      },
    );
  };
}
