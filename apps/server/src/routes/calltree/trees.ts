import {
  AddCallTreeMemberRequest,
  CallTreeChange,
  CallTreeDetail,
  CallTreeSummary,
  CreateCallTreeRequest,
  CreateCallTreeResponse,
  ImportCallTreeRequest,
  ImportCallTreeResponse,
  MoveCallTreeMemberRequest,
  okEnvelope,
  RefreshCallTreeRequest,
  RefreshCallTreeResponse,
} from '@btalk/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authenticate } from '../../auth/authenticate.ts';
import { loadTree, loadTreeChanges } from '../../calltree/treeStore.ts';
import {
  callTreeCreator,
  callTreeCsvImporter,
  callTreeMemberAdder,
  callTreeMemberMover,
  callTreeMemberRemover,
  callTreeRefresher,
  callTreeRoleSetter,
} from '../../commands/callTreeEditor.ts';
import { transact } from '../../commands/transact.ts';
import type { AppContext } from '../../context.ts';
import { syncDirectoryPeople } from '../../directory/index.ts';
import { ok } from '../../http/envelope.ts';
import { authorize, treeAccess, visibleCallTrees } from '../../policies/calltree.ts';
import {
  presentRefreshOutcome,
  presentTreeChange,
  presentTreeCsv,
  presentTreeDetail,
  presentTreeSummaries,
  presentUnplaced,
} from '../../presenters/calltree.ts';

const TreeParams = z.object({ treeId: z.string().min(1) });
const MemberParams = z.object({ treeId: z.string().min(1), userId: z.string().min(1) });
const Done = z.object({ done: z.literal(true) });

/**
 * Call trees: list, build, refresh from the directory, edit, CSV import and export, event manager role.
 * People to add are found with the one people search, `GET /api/users`.
 */
export function callTreeRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const db = ctx.db.kysely;
  return async (app) => {
    app.addHook('onRequest', authenticate(ctx));

    app.get(
      '/calltree/trees',
      {
        schema: {
          summary: 'My call trees (all of them for admins)',
          response: { 200: okEnvelope(z.array(CallTreeSummary)) },
        },
      },
      async (request) => {
        const trees = await db
          .selectFrom('call_trees')
          .selectAll()
          .where(visibleCallTrees(request.user))
          .orderBy('name')
          .orderBy('id')
          .execute();
        return ok(await presentTreeSummaries(db, request.user, trees));
      },
    );

    app.post(
      '/calltree/trees',
      {
        schema: {
          summary: 'Build a call tree from the directory (or an empty one); admins only',
          body: CreateCallTreeRequest,
          response: { 200: okEnvelope(CreateCallTreeResponse) },
        },
      },
      async (request) => {
        authorize(request.user, 'createTree');
        if (request.body.source === 'directory') await syncDirectoryPeople(ctx);
        const made = await transact(ctx, (trx) => callTreeCreator(trx, request.user, request.body));
        const tree = await loadTree(db, made.treeId);
        const [summary] = await presentTreeSummaries(db, request.user, [tree]);
        return ok({ tree: summary!, unplaced: await presentUnplaced(db, made.unplaced) });
      },
    );

    app.get(
      '/calltree/trees/:treeId',
      {
        schema: {
          summary: 'A call tree with its people',
          params: TreeParams,
          response: { 200: okEnvelope(CallTreeDetail) },
        },
      },
      async (request) => {
        const tree = await loadTree(db, request.params.treeId);
        authorize(request.user, 'view', { tree: await treeAccess(db, request.user, tree.id) });
        return ok(await presentTreeDetail(db, request.user, tree));
      },
    );

    app.post(
      '/calltree/trees/:treeId/refresh',
      {
        schema: {
          summary: 'Compare a directory tree with the directory (preview), or apply the changes',
          params: TreeParams,
          body: RefreshCallTreeRequest,
          response: { 200: okEnvelope(RefreshCallTreeResponse) },
        },
      },
      async (request) => {
        // Who may edit the tree is checked before the directory is asked, then again in the change.
        const asked = await loadTree(db, request.params.treeId);
        authorize(request.user, 'edit', { tree: await treeAccess(db, request.user, asked.id) });
        await syncDirectoryPeople(ctx);
        const outcome = await transact(ctx, async (trx) => {
          const tree = await loadTree(trx, request.params.treeId);
          authorize(request.user, 'edit', { tree: await treeAccess(trx, request.user, tree.id) });
          return callTreeRefresher(trx, request.user, tree, request.body.apply);
        });
        return ok(await presentRefreshOutcome(db, outcome));
      },
    );

    app.post(
      '/calltree/trees/:treeId/members',
      {
        schema: {
          summary: 'Add a person to a tree; admins only',
          params: TreeParams,
          body: AddCallTreeMemberRequest,
          response: { 200: okEnvelope(Done) },
        },
      },
      async (request) => {
        await transact(ctx, async (trx) => {
          const tree = await loadTree(trx, request.params.treeId);
          authorize(request.user, 'edit', { tree: await treeAccess(trx, request.user, tree.id) });
          await callTreeMemberAdder(trx, request.user, tree, request.body);
        });
        return ok({ done: true as const });
      },
    );

    app.patch(
      '/calltree/trees/:treeId/members/:userId',
      {
        schema: {
          summary: 'Move a person under another manager; admins only',
          params: MemberParams,
          body: MoveCallTreeMemberRequest,
          response: { 200: okEnvelope(Done) },
        },
      },
      async (request) => {
        await transact(ctx, async (trx) => {
          const tree = await loadTree(trx, request.params.treeId);
          authorize(request.user, 'edit', { tree: await treeAccess(trx, request.user, tree.id) });
          await callTreeMemberMover(trx, request.user, tree, request.params.userId, request.body.managerId);
        });
        return ok({ done: true as const });
      },
    );

    app.delete(
      '/calltree/trees/:treeId/members/:userId',
      {
        schema: {
          summary: 'Remove a person from a tree (their reports move up); admins only',
          params: MemberParams,
          response: { 200: okEnvelope(Done) },
        },
      },
      async (request) => {
        await transact(ctx, async (trx) => {
          const tree = await loadTree(trx, request.params.treeId);
          authorize(request.user, 'edit', { tree: await treeAccess(trx, request.user, tree.id) });
          await callTreeMemberRemover(trx, request.user, tree, request.params.userId);
        });
        return ok({ done: true as const });
      },
    );

    app.put(
      '/calltree/trees/:treeId/event-managers/:userId',
      {
        schema: {
          summary: 'Give a person the event manager role of a tree; admins only',
          params: MemberParams,
          response: { 200: okEnvelope(Done) },
        },
      },
      async (request) => {
        await transact(ctx, async (trx) => {
          const tree = await loadTree(trx, request.params.treeId);
          authorize(request.user, 'manageRoles', { tree: await treeAccess(trx, request.user, tree.id) });
          await callTreeRoleSetter(trx, request.user, tree, request.params.userId, true);
        });
        return ok({ done: true as const });
      },
    );

    app.delete(
      '/calltree/trees/:treeId/event-managers/:userId',
      {
        schema: {
          summary: 'Take the event manager role of a tree from a person; admins only',
          params: MemberParams,
          response: { 200: okEnvelope(Done) },
        },
      },
      async (request) => {
        await transact(ctx, async (trx) => {
          const tree = await loadTree(trx, request.params.treeId);
          authorize(request.user, 'manageRoles', { tree: await treeAccess(trx, request.user, tree.id) });
          await callTreeRoleSetter(trx, request.user, tree, request.params.userId, false);
        });
        return ok({ done: true as const });
      },
    );

    app.get(
      '/calltree/trees/:treeId/changes',
      {
        schema: {
          summary: "A tree's edit history, newest first; admins only",
          params: TreeParams,
          response: { 200: okEnvelope(z.array(CallTreeChange)) },
        },
      },
      async (request) => {
        const tree = await loadTree(db, request.params.treeId);
        authorize(request.user, 'edit', { tree: await treeAccess(db, request.user, tree.id) });
        const rows = await loadTreeChanges(db, tree.id);
        return ok(rows.map(presentTreeChange));
      },
    );

    app.get(
      '/calltree/trees/:treeId/csv',
      {
        schema: {
          summary: 'Download a tree as CSV (email, manager email); event managers and admins',
          params: TreeParams,
          produces: ['text/csv'],
        },
      },
      async (request, reply) => {
        const tree = await loadTree(db, request.params.treeId);
        authorize(request.user, 'export', { tree: await treeAccess(db, request.user, tree.id) });
        const csv = await presentTreeCsv(db, tree);
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="call-tree-${tree.id}.csv"`)
          .send(csv);
      },
    );

    app.post(
      '/calltree/trees/:treeId/csv',
      {
        schema: {
          summary: "Import a tree's people from CSV: preview with per-row errors, or apply; admins only",
          params: TreeParams,
          body: ImportCallTreeRequest,
          response: { 200: okEnvelope(ImportCallTreeResponse) },
        },
      },
      async (request) => {
        const preview = await transact(ctx, async (trx) => {
          const tree = await loadTree(trx, request.params.treeId);
          authorize(request.user, 'edit', { tree: await treeAccess(trx, request.user, tree.id) });
          return callTreeCsvImporter(trx, request.user, tree, request.body.csv, request.body.apply);
        });
        return ok({ applied: request.body.apply, rows: preview.rows, errorCount: preview.errorCount });
      },
    );
  };
}
