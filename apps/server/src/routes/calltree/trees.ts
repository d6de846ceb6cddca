import {
  AddCallTreeMemberRequest,
  CallTreeChange,
  CallTreeDetail,
  CallTreeSummary,
  CreateCallTreeRequest,
  CreateCallTreeResponse,
  DirectoryPerson,
  DirectorySearchQuery,
  ImportCallTreeRequest,
  ImportCallTreeResponse,
  MoveCallTreeMemberRequest,
  okEnvelope,
  RefreshCallTreeRequest,
  RefreshCallTreeResponse,
  type UnplacedPerson,
} from '@btalk/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import { authenticate } from '../../auth/authenticate.ts';
import { previewTreeCsv, toCsv } from '../../calltree/csv.ts';
import { wholeTree } from '../../calltree/hierarchy.ts';
import { loadMembers, loadTree, peopleById } from '../../calltree/treeStore.ts';
import {
  callTreeCreator,
  callTreeImporter,
  callTreeMemberAdder,
  callTreeMemberMover,
  callTreeMemberRemover,
  callTreeRefresher,
  callTreeRoleSetter,
  type Unplaced,
} from '../../commands/callTreeEditor.ts';
import { transact } from '../../commands/transact.ts';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/index.ts';
import type { CallTreeRow, UserRow } from '../../db/schema.ts';
import { syncDirectoryPeople } from '../../directory/index.ts';
import { ok } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { authorizeTree, treeAbilities, treeAccess } from '../../policies/calltree.ts';
import { presentTreeSummary } from '../../presenters/calltree.ts';

const TreeParams = z.object({ treeId: z.string().min(1) });
const MemberParams = z.object({ treeId: z.string().min(1), userId: z.string().min(1) });
const Done = z.object({ done: z.literal(true) });

async function summaries(
  db: Kysely<Database>,
  user: UserRow,
  trees: CallTreeRow[],
): Promise<CallTreeSummary[]> {
  if (trees.length === 0) return [];
  const ids = trees.map((t) => t.id);
  const [counts, running] = await Promise.all([
    db
      .selectFrom('call_tree_members')
      .select(['tree_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('tree_id', 'in', ids)
      .groupBy('tree_id')
      .execute(),
    db
      .selectFrom('call_events')
      .select(['tree_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('tree_id', 'in', ids)
      .where('status', '=', 'running')
      .groupBy('tree_id')
      .execute(),
  ]);
  const countOf = new Map(counts.map((c) => [c.tree_id, Number(c.n)]));
  const runningOf = new Map(running.map((c) => [c.tree_id, Number(c.n)]));
  return Promise.all(
    trees.map(async (tree) =>
      presentTreeSummary(
        tree,
        countOf.get(tree.id) ?? 0,
        runningOf.get(tree.id) ?? 0,
        treeAbilities(await treeAccess(db, user, tree.id)),
      ),
    ),
  );
}

async function presentUnplaced(db: Kysely<Database>, unplaced: Unplaced): Promise<UnplacedPerson[]> {
  const people = await peopleById(
    db,
    unplaced.map((u) => u.id),
  );
  return unplaced.map((u) => ({
    id: u.id,
    displayName: people.get(u.id)?.display_name ?? '',
    email: people.get(u.id)?.email ?? '',
    reason: u.reason,
  }));
}

/** Call trees: list, build, refresh from the directory, edit, CSV import and export, event manager role. */
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
        const user = request.user;
        let query = db.selectFrom('call_trees').selectAll();
        if (user.role !== 'admin') {
          query = query.where((eb) =>
            eb.or([
              eb(
                'id',
                'in',
                eb.selectFrom('call_tree_managers').select('tree_id').where('user_id', '=', user.id),
              ),
              eb(
                'id',
                'in',
                eb.selectFrom('call_tree_members').select('tree_id').where('user_id', '=', user.id),
              ),
            ]),
          );
        }
        const trees = await query.orderBy('name').execute();
        return ok(await summaries(db, user, trees));
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
        if (request.user.role !== 'admin') {
          throw new AppError('forbidden', 'Only an admin may create call trees.');
        }
        if (request.body.source === 'directory') await syncDirectoryPeople(ctx);
        const made = await transact(ctx, (trx) => callTreeCreator(trx, request.user, request.body));
        const tree = await loadTree(db, made.treeId);
        const [summary] = await summaries(db, request.user, [tree]);
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
        authorizeTree(await treeAccess(db, request.user, tree.id), 'view');
        const members = await loadMembers(db, tree.id);
        const managers = await db
          .selectFrom('call_tree_managers as m')
          .innerJoin('users as u', 'u.id', 'm.user_id')
          .select(['u.id', 'u.display_name', 'u.email'])
          .where('m.tree_id', '=', tree.id)
          .orderBy('u.display_name')
          .execute();
        const people = await peopleById(db, members.keys());
        const [summary] = await summaries(db, request.user, [tree]);
        return ok({
          ...summary!,
          members: wholeTree(members).map(({ id }) => {
            const p = people.get(id)!;
            return {
              id,
              displayName: p.display_name,
              email: p.email,
              department: p.department,
              jobTitle: p.job_title,
              managerId: members.get(id) ?? null,
            };
          }),
          eventManagers: managers.map((m) => ({ id: m.id, displayName: m.display_name, email: m.email })),
        });
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
        authorizeTree(await treeAccess(db, request.user, asked.id), 'edit');
        await syncDirectoryPeople(ctx);
        const outcome = await transact(ctx, async (trx) => {
          const tree = await loadTree(trx, request.params.treeId);
          authorizeTree(await treeAccess(trx, request.user, tree.id), 'edit');
          return callTreeRefresher(trx, request.user, tree, request.body.apply);
        });
        const people = await peopleById(db, [
          ...outcome.joined,
          ...outcome.left,
          ...outcome.moved.map((m) => m.id),
        ]);
        const ref = (id: string) => ({
          id,
          displayName: people.get(id)?.display_name ?? '',
          email: people.get(id)?.email ?? '',
        });
        return ok({
          applied: outcome.applied,
          joined: outcome.joined.map(ref),
          left: outcome.left.map(ref),
          moved: outcome.moved.map((m) => ({
            id: m.id,
            displayName: people.get(m.id)?.display_name ?? '',
            fromManagerId: m.from,
            toManagerId: m.to,
          })),
          unplaced: await presentUnplaced(db, outcome.unplaced),
        });
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
          authorizeTree(await treeAccess(trx, request.user, tree.id), 'edit');
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
          authorizeTree(await treeAccess(trx, request.user, tree.id), 'edit');
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
          authorizeTree(await treeAccess(trx, request.user, tree.id), 'edit');
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
          authorizeTree(await treeAccess(trx, request.user, tree.id), 'manageRoles');
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
          authorizeTree(await treeAccess(trx, request.user, tree.id), 'manageRoles');
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
        authorizeTree(await treeAccess(db, request.user, tree.id), 'edit');
        const rows = await db
          .selectFrom('call_tree_changes')
          .selectAll()
          .where('tree_id', '=', tree.id)
          .orderBy('id', 'desc')
          .limit(500)
          .execute();
        return ok(
          rows.map((r) => ({
            id: r.id,
            action: r.action,
            actorId: r.actor_id,
            userId: r.user_id,
            detail: JSON.parse(r.detail) as Record<string, unknown>,
            createdAt: r.created_at,
          })),
        );
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
        authorizeTree(await treeAccess(db, request.user, tree.id), 'export');
        const members = await loadMembers(db, tree.id);
        const people = await peopleById(db, members.keys());
        const rows = wholeTree(members).map(({ id }) => {
          const manager = members.get(id);
          return [people.get(id)!.email, manager ? people.get(manager)!.email : ''];
        });
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="call-tree-${tree.id}.csv"`)
          .send(toCsv(['email', 'manager email'], rows));
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
          authorizeTree(await treeAccess(trx, request.user, tree.id), 'edit');
          const people = await trx
            .selectFrom('users')
            .select(['id', 'email', 'display_name', 'disabled'])
            .execute();
          const result = previewTreeCsv(
            request.body.csv,
            people.map((p) => ({
              id: p.id,
              email: p.email,
              displayName: p.display_name,
              disabled: !!p.disabled,
            })),
          );
          if (request.body.apply && result.errorCount > 0) {
            const details = result.rows
              .filter((r) => r.error)
              .slice(0, 50)
              .map((r) => ({ field: 'body.csv', reason: `line ${r.line}: ${r.error}` }));
            throw new AppError(
              'validation',
              `${result.errorCount} row(s) have errors; fix them (see the preview) and import again. Nothing was changed.`,
              details,
            );
          }
          if (request.body.apply) await callTreeImporter(trx, request.user, tree, result.members);
          return result;
        });
        return ok({ applied: request.body.apply, rows: preview.rows, errorCount: preview.errorCount });
      },
    );

    app.get(
      '/calltree/directory',
      {
        schema: {
          summary: 'Search the directory for people to add to a tree; admins and event managers',
          querystring: DirectorySearchQuery,
          response: { 200: okEnvelope(z.array(DirectoryPerson)) },
        },
      },
      async (request) => {
        const user = request.user;
        if (user.role !== 'admin') {
          const managesAny = await db
            .selectFrom('call_tree_managers')
            .select('tree_id')
            .where('user_id', '=', user.id)
            .limit(1)
            .executeTakeFirst();
          if (!managesAny)
            throw new AppError('forbidden', 'Only admins and event managers search the directory here.');
        }
        const pattern = `%${request.query.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        const rows = await db
          .selectFrom('users')
          .select(['id', 'display_name', 'email', 'department', 'job_title'])
          .where('disabled', '=', 0)
          .where(
            sql<boolean>`(lower(display_name) like ${pattern} escape '\\' or lower(email) like ${pattern} escape '\\')`,
          )
          .orderBy('display_name')
          .limit(request.query.limit)
          .execute();
        return ok(
          rows.map((r) => ({
            id: r.id,
            displayName: r.display_name,
            email: r.email,
            department: r.department,
            jobTitle: r.job_title,
          })),
        );
      },
    );
  };
}
