import { ErrorCode } from '@btalk/contracts';
import { beforeAll, expect, it } from 'vitest';
import { buildOrg, headersFor, type Org } from '../../test/calltree.ts';
import { describeEachDatabase } from '../../test/db.ts';
import { buildUser } from '../../test/factories.ts';
import { useTestServer } from '../../test/server.ts';
import { type SignedIn, signedIn } from '../../test/session.ts';

describeEachDatabase('call trees API', (kind) => {
  const server = useTestServer(kind);
  let admin: SignedIn;
  let stranger: SignedIn;
  let org: Org;
  let treeId: string;

  const req = (
    method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
    url: string,
    headers = {},
    payload?: object,
  ) => server.request({ method, url, headers, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    admin = await signedIn(server, { role: 'admin' });
    stranger = await signedIn(server);
    org = await buildOrg(server);
    const res = await req('POST', '/api/calltree/trees', admin.headers, {
      name: 'Head office',
      rootUserId: org.ceo.id,
    });
    expect(res.statusCode).toBe(200);
    treeId = res.json().data.tree.id;
  });

  it('requires authentication on every route', async () => {
    for (const [method, url] of [
      ['GET', '/api/calltree/trees'],
      ['POST', '/api/calltree/trees'],
      ['GET', `/api/calltree/trees/${treeId}`],
      ['POST', `/api/calltree/trees/${treeId}/refresh`],
      ['GET', `/api/calltree/trees/${treeId}/csv`],
    ] as const) {
      const res = await req(method, url);
      expect(res.statusCode, url).toBe(401);
      expect(res.json().code).toBe(ErrorCode.unauthenticated);
    }
  });

  it('builds a tree from the directory manager chain, four levels deep', async () => {
    const res = await req('GET', `/api/calltree/trees/${treeId}`, admin.headers);
    expect(res.statusCode).toBe(200);
    const tree = res.json().data;
    expect(tree.source).toBe('directory');
    expect(tree.memberCount).toBe(9);
    const managerOf = Object.fromEntries(
      tree.members.map((m: { id: string; managerId: string }) => [m.id, m.managerId]),
    );
    expect(managerOf[org.ceo.id]).toBeNull();
    expect(managerOf[org.a1.id]).toBe(org.ceo.id);
    expect(managerOf[org.b1.id]).toBe(org.a1.id);
    expect(managerOf[org.c1.id]).toBe(org.b1.id);
    expect(tree.members[0].id).toBe(org.ceo.id);
    expect(tree.abilities).toEqual({ edit: true, manageRoles: true, startEvent: true, export: true });
  });

  it('reports people it cannot place (loops, managers outside the directory) instead of dropping them', async () => {
    const db = server.ctx.db.kysely;
    const loopA = await buildUser(db, { subject: 'loop-a', manager_subject: 'loop-b' });
    const loopB = await buildUser(db, { subject: 'loop-b', manager_subject: 'loop-a' });
    const underLoop = await buildUser(db, { subject: 'under-loop', manager_subject: 'loop-a' });
    const orphan = await buildUser(db, { subject: 'orphan', manager_subject: 'nobody-has-this-subject' });
    const res = await req('POST', '/api/calltree/trees', admin.headers, { name: 'Everyone' });
    expect(res.statusCode).toBe(200);
    const reasons = Object.fromEntries(
      res.json().data.unplaced.map((u: { id: string; reason: string }) => [u.id, u.reason]),
    );
    expect(reasons[loopA.id]).toBe('manager_loop');
    expect(reasons[loopB.id]).toBe('manager_loop');
    expect(reasons[underLoop.id]).toBe('under_unplaced_manager');
    expect(reasons[orphan.id]).toBe('manager_outside_tree');
    expect(reasons[org.c1.id]).toBeUndefined();
  });

  it('creating a tree is for admins; bad input names the field', async () => {
    const member = await req('POST', '/api/calltree/trees', stranger.headers, { name: 'Mine' });
    expect(member.statusCode).toBe(403);
    const noName = await req('POST', '/api/calltree/trees', admin.headers, { name: '' });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().details[0].field).toBe('body.name');
    const badRoot = await req('POST', '/api/calltree/trees', admin.headers, {
      name: 'X',
      rootUserId: 'nobody',
    });
    expect(badRoot.statusCode).toBe(400);
    expect(badRoot.json().details[0].field).toBe('body.rootUserId');
  });

  it('hides a tree from strangers (404) and shows it read-only to its members', async () => {
    expect((await req('GET', `/api/calltree/trees/${treeId}`, stranger.headers)).statusCode).toBe(404);
    const c1 = await headersFor(server, org.c1);
    const seen = await req('GET', `/api/calltree/trees/${treeId}`, c1);
    expect(seen.statusCode).toBe(200);
    expect(seen.json().data.abilities).toEqual({
      edit: false,
      manageRoles: false,
      startEvent: false,
      export: false,
    });
    const list = await req('GET', '/api/calltree/trees', c1);
    expect(list.json().data.map((t: { id: string }) => t.id)).toContain(treeId);
    const theirs = (await req('GET', '/api/calltree/trees', stranger.headers)).json().data;
    expect(theirs.map((t: { id: string }) => t.id)).not.toContain(treeId);
    const edit = await req('PATCH', `/api/calltree/trees/${treeId}/members/${org.c1.id}`, c1, {
      managerId: null,
    });
    expect(edit.statusCode).toBe(403);
    const strangerEdit = await req(
      'PATCH',
      `/api/calltree/trees/${treeId}/members/${org.c1.id}`,
      stranger.headers,
      {
        managerId: null,
      },
    );
    expect(strangerEdit.statusCode).toBe(404);
  });

  it('lets admins move, add and remove people, refusing loops, and keeps the history', async () => {
    const { data: made } = (
      await req('POST', '/api/calltree/trees', admin.headers, { name: 'Edits', rootUserId: org.ceo.id })
    ).json();
    const id = made.tree.id;
    const move = await req('PATCH', `/api/calltree/trees/${id}/members/${org.c1.id}`, admin.headers, {
      managerId: org.b3.id,
    });
    expect(move.statusCode).toBe(200);
    const loop = await req('PATCH', `/api/calltree/trees/${id}/members/${org.a1.id}`, admin.headers, {
      managerId: org.c2.id,
    });
    expect(loop.statusCode).toBe(400);
    expect(loop.json().details[0].field).toBe('body.managerId');
    const newcomer = await buildUser(server.ctx.db.kysely, { display_name: 'Newcomer' });
    const search = await req('GET', '/api/users?search=newcomer', admin.headers);
    expect(search.json().data.items.map((p: { id: string }) => p.id)).toContain(newcomer.id);
    expect(
      (
        await req('POST', `/api/calltree/trees/${id}/members`, admin.headers, {
          userId: newcomer.id,
          managerId: org.b2.id,
        })
      ).statusCode,
    ).toBe(200);
    const twice = await req('POST', `/api/calltree/trees/${id}/members`, admin.headers, {
      userId: newcomer.id,
      managerId: null,
    });
    expect(twice.statusCode).toBe(409);
    const badManager = await req('POST', `/api/calltree/trees/${id}/members`, admin.headers, {
      userId: stranger.user.id,
      managerId: 'not-a-member',
    });
    expect(badManager.statusCode).toBe(400);
    expect(
      (await req('DELETE', `/api/calltree/trees/${id}/members/${org.b1.id}`, admin.headers)).statusCode,
    ).toBe(200);
    const tree = (await req('GET', `/api/calltree/trees/${id}`, admin.headers)).json().data;
    const managerOf = Object.fromEntries(
      tree.members.map((m: { id: string; managerId: string }) => [m.id, m.managerId]),
    );
    expect(managerOf[org.c1.id]).toBe(org.b3.id);
    expect(managerOf[newcomer.id]).toBe(org.b2.id);
    expect(managerOf[org.b1.id]).toBeUndefined();
    // b1's remaining report moved up to b1's manager.
    expect(managerOf[org.c2.id]).toBe(org.a1.id);
    const changes = (await req('GET', `/api/calltree/trees/${id}/changes`, admin.headers)).json().data;
    expect(changes.map((c: { action: string }) => c.action)).toEqual(['removed', 'added', 'moved', 'built']);
    expect(changes[2].detail).toEqual({ from: org.b1.id, to: org.b3.id });
    expect(changes[2].actorId).toBe(admin.user.id);
    const audited = await server.ctx.db.kysely
      .selectFrom('audit_log')
      .select(['action', 'actor_id'])
      .where('target', '=', `calltree:${id}`)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    expect(audited.map((a) => a.action)).toEqual([
      'calltree.built',
      'calltree.moved',
      'calltree.added',
      'calltree.removed',
    ]);
    expect(audited[1]!.actor_id).toBe(admin.user.id);
  });

  it('refreshes from the directory: a preview of who joined, left or moved, then applies it', async () => {
    const db = server.ctx.db.kysely;
    const small = await buildOrg(server);
    const { data: made } = (
      await req('POST', '/api/calltree/trees', admin.headers, { name: 'Refresh', rootUserId: small.ceo.id })
    ).json();
    const id = made.tree.id;
    const joiner = await buildUser(db, { manager_subject: small.b2.subject });
    await db
      .updateTable('users')
      .set({ manager_subject: small.b3.subject })
      .where('id', '=', small.c1.id)
      .execute();
    await db.updateTable('users').set({ disabled: 1 }).where('id', '=', small.c2.id).execute();
    const preview = await req('POST', `/api/calltree/trees/${id}/refresh`, admin.headers, { apply: false });
    expect(preview.statusCode).toBe(200);
    const p = preview.json().data;
    expect(p.applied).toBe(false);
    expect(p.joined.map((x: { id: string }) => x.id)).toEqual([joiner.id]);
    expect(p.left.map((x: { id: string }) => x.id)).toEqual([small.c2.id]);
    expect(p.moved).toEqual([
      {
        id: small.c1.id,
        displayName: small.c1.display_name,
        fromManagerId: small.b1.id,
        toManagerId: small.b3.id,
      },
    ]);
    const before = (await req('GET', `/api/calltree/trees/${id}`, admin.headers)).json().data;
    expect(before.memberCount).toBe(9);
    const applied = await req('POST', `/api/calltree/trees/${id}/refresh`, admin.headers, { apply: true });
    expect(applied.json().data.applied).toBe(true);
    const after = (await req('GET', `/api/calltree/trees/${id}`, admin.headers)).json().data;
    const managerOf = Object.fromEntries(
      after.members.map((m: { id: string; managerId: string }) => [m.id, m.managerId]),
    );
    expect(managerOf[joiner.id]).toBe(small.b2.id);
    expect(managerOf[small.c1.id]).toBe(small.b3.id);
    expect(managerOf[small.c2.id]).toBeUndefined();
    const bad = await req('POST', `/api/calltree/trees/${id}/refresh`, admin.headers, { apply: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].field).toBe('body.apply');
  });

  it('exports the tree as CSV and imports one with a preview and per-row errors before applying', async () => {
    const exported = await req('GET', `/api/calltree/trees/${treeId}/csv`, admin.headers);
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toContain('text/csv');
    const lines = exported.body.trim().split('\r\n');
    expect(lines[0]).toBe('email,manager email');
    expect(lines).toContain(`${org.c1.email},${org.b1.email}`);
    expect(lines).toContain(`${org.ceo.email},`);
    expect(
      (await req('GET', `/api/calltree/trees/${treeId}/csv`, await headersFor(server, org.c1))).statusCode,
    ).toBe(403);

    const { data: made } = (
      await req('POST', '/api/calltree/trees', admin.headers, { name: 'Site', source: 'empty' })
    ).json();
    const id = made.tree.id;
    const broken = [
      'email,manager email',
      `${org.a1.email},`,
      `${org.b1.email},${org.a1.email}`,
      'nobody@btalk.test,',
      `${org.b1.email},`,
      `${org.c1.email},missing@btalk.test`,
      `${org.c2.email},${org.c3.email}`,
      `${org.c3.email},${org.c2.email}`,
    ].join('\n');
    const preview = await req('POST', `/api/calltree/trees/${id}/csv`, admin.headers, { csv: broken });
    expect(preview.statusCode).toBe(200);
    const rows = preview.json().data.rows;
    expect(preview.json().data.applied).toBe(false);
    expect(rows[0]).toMatchObject({ line: 2, userId: org.a1.id, error: null });
    expect(rows[2].error).toContain('no person with the e-mail address');
    expect(rows[3].error).toContain('listed twice (first on line 3)');
    expect(rows[4].error).toContain('has no row of their own');
    expect(rows[5].error).toContain('loops');
    expect(preview.json().data.errorCount).toBe(5);
    const refused = await req('POST', `/api/calltree/trees/${id}/csv`, admin.headers, {
      csv: broken,
      apply: true,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().details[0]).toEqual({
      field: 'body.csv',
      reason: expect.stringContaining('line 4'),
    });
    expect((await req('GET', `/api/calltree/trees/${id}`, admin.headers)).json().data.memberCount).toBe(0);

    const good = ['email,manager email', `${org.a1.email},`, `${org.b1.email},${org.a1.email}`].join('\n');
    const applied = await req('POST', `/api/calltree/trees/${id}/csv`, admin.headers, {
      csv: good,
      apply: true,
    });
    expect(applied.statusCode).toBe(200);
    expect(applied.json().data).toMatchObject({ applied: true, errorCount: 0 });
    const tree = (await req('GET', `/api/calltree/trees/${id}`, admin.headers)).json().data;
    expect(tree.source).toBe('csv');
    expect(tree.members.map((m: { id: string; managerId: string }) => [m.id, m.managerId])).toEqual([
      [org.a1.id, null],
      [org.b1.id, org.a1.id],
    ]);
    const noHeader = await req('POST', `/api/calltree/trees/${id}/csv`, admin.headers, { csv: 'a,b\nc,d' });
    expect(noHeader.statusCode).toBe(400);
    expect(noHeader.json().details[0].field).toBe('body.csv');
    const refresh = await req('POST', `/api/calltree/trees/${id}/refresh`, admin.headers, { apply: false });
    expect(refresh.statusCode).toBe(409);
  });

  it('grants and revokes the event manager role (admins only)', async () => {
    const manager = await headersFor(server, org.a2);
    const put = `/api/calltree/trees/${treeId}/event-managers/${org.a2.id}`;
    expect((await req('PUT', put, manager)).statusCode).toBe(403);
    expect((await req('PUT', put, stranger.headers)).statusCode).toBe(404);
    expect((await req('PUT', put, admin.headers)).statusCode).toBe(200);
    expect((await req('PUT', put, admin.headers)).statusCode).toBe(200);
    const tree = (await req('GET', `/api/calltree/trees/${treeId}`, manager)).json().data;
    expect(tree.eventManagers.map((m: { id: string }) => m.id)).toEqual([org.a2.id]);
    expect(tree.abilities.startEvent).toBe(true);
    expect(tree.abilities.edit).toBe(false);
    expect((await req('DELETE', put, admin.headers)).statusCode).toBe(200);
    const again = (await req('GET', `/api/calltree/trees/${treeId}`, manager)).json().data;
    expect(again.abilities.startEvent).toBe(false);
    const bogus = await req('PUT', `/api/calltree/trees/${treeId}/event-managers/nobody`, admin.headers);
    expect(bogus.statusCode).toBe(400);
  });

  it('tells the person’s open sockets when the event manager role is given or taken, once per change', async () => {
    const db = server.ctx.db.kysely;
    const accessEvents = async () =>
      (
        await db
          .selectFrom('events')
          .select(['type', 'payload', 'actor_id'])
          .where('room', '=', `user:${org.b3.id}`)
          .where('type', '=', 'access.changed')
          .orderBy('seq')
          .execute()
      ).map((e) => ({ ...e, payload: JSON.parse(e.payload) }));
    const url = `/api/calltree/trees/${treeId}/event-managers/${org.b3.id}`;
    const before = (await accessEvents()).length;
    expect((await req('PUT', url, admin.headers)).statusCode).toBe(200);
    const granted = await accessEvents();
    expect(granted).toHaveLength(before + 1);
    expect(granted.at(-1)).toEqual({
      type: 'access.changed',
      payload: { reason: 'event manager of Head office' },
      actor_id: admin.user.id,
    });
    // Granting again changes nothing, so nothing is told.
    expect((await req('PUT', url, admin.headers)).statusCode).toBe(200);
    expect(await accessEvents()).toHaveLength(before + 1);
    expect((await req('DELETE', url, admin.headers)).statusCode).toBe(200);
    expect(await accessEvents()).toHaveLength(before + 2);
    expect((await req('DELETE', url, admin.headers)).statusCode).toBe(200);
    expect(await accessEvents()).toHaveLength(before + 2);
    // Refused changes record nothing.
    expect((await req('PUT', url, await headersFor(server, org.a1))).statusCode).toBe(403);
    expect(await accessEvents()).toHaveLength(before + 2);
  });

  it('has one people search: the call-tree directory search is gone (404), /api/users finds people to add', async () => {
    for (const headers of [admin.headers, stranger.headers]) {
      const gone = await req('GET', '/api/calltree/directory?q=ceo', headers);
      expect(gone.statusCode).toBe(404);
      expect(gone.json().code).toBe(ErrorCode.notFound);
    }
    // Those who used the directory search (admins, event managers) find people with the one search.
    await req('PUT', `/api/calltree/trees/${treeId}/event-managers/${org.a2.id}`, admin.headers);
    const manager = await headersFor(server, org.a2);
    for (const headers of [admin.headers, manager]) {
      const found = await req('GET', `/api/users?search=${encodeURIComponent(org.c3.email)}`, headers);
      expect(found.statusCode).toBe(200);
      expect(found.json().data.items).toEqual([
        expect.objectContaining({ id: org.c3.id, displayName: org.c3.display_name, email: org.c3.email }),
      ]);
    }
  });
});
