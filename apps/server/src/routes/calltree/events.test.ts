import { randomUUID } from 'node:crypto';
import Papa from 'papaparse';
import { beforeAll, expect, it } from 'vitest';
import { canSeeCallEvent, visibleCallEventIds } from '../../policies/calltree.ts';
import { ROLLUP_FIRST_PEOPLE } from '../../presenters/calltree.ts';
import { buildOrg, headersFor, type Org } from '../../test/calltree.ts';
import { describeEachDatabase } from '../../test/db.ts';
import { buildUser } from '../../test/factories.ts';
import { useTestServer } from '../../test/server.ts';
import { type SignedIn, signedIn } from '../../test/session.ts';

describeEachDatabase('call-tree events API', (kind) => {
  const server = useTestServer(kind);
  let admin: SignedIn;
  let stranger: SignedIn;
  let org: Org;
  let treeId: string;
  let h: Record<keyof Org, { authorization: string }>;

  const req = (
    method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
    url: string,
    headers = {},
    payload?: object,
  ) => server.request({ method, url, headers, ...(payload ? { payload } : {}) });
  const start = (headers: object, body: object = {}) =>
    req('POST', `/api/calltree/trees/${treeId}/events`, headers, {
      title: 'Fire alarm, building B',
      message: 'Leave by the stairs and answer here.',
      kind: 'drill',
      ...body,
    });
  const answer = (headers: object, eventId: string, body: object) =>
    req('POST', `/api/calltree/events/${eventId}/answers`, headers, { id: randomUUID(), ...body });

  beforeAll(async () => {
    admin = await signedIn(server, { role: 'admin' });
    stranger = await signedIn(server);
    org = await buildOrg(server);
    h = Object.fromEntries(
      await Promise.all(Object.entries(org).map(async ([k, u]) => [k, await headersFor(server, u)])),
    ) as typeof h;
    const res = await req('POST', '/api/calltree/trees', admin.headers, {
      name: 'Head office',
      rootUserId: org.ceo.id,
    });
    treeId = res.json().data.tree.id;
    await req('PUT', `/api/calltree/trees/${treeId}/event-managers/${org.a2.id}`, admin.headers);
  });

  it('starting an event: 401 without a session, 404 to strangers, 403 to members, 400 on bad input', async () => {
    expect((await start({})).statusCode).toBe(401);
    expect((await start(stranger.headers)).statusCode).toBe(404);
    expect((await start(h.c1)).statusCode).toBe(403);
    const noKind = await start(admin.headers, { kind: 'rehearsal' });
    expect(noKind.statusCode).toBe(400);
    expect(noKind.json().details[0].field).toBe('body.kind');
    const badDelay = await start(admin.headers, { escalationDelayMinutes: 0 });
    expect(badDelay.json().details[0].field).toBe('body.escalationDelayMinutes');
    const badOptions = await start(admin.headers, {
      options: [
        { id: 'ok', label: 'OK', needsHelp: false },
        { id: 'ok', label: 'Fine', needsHelp: false },
      ],
    });
    expect(badOptions.statusCode).toBe(400);
    expect(badOptions.json().details[0].field).toBe('body.options');
    const badBranch = await start(admin.headers, { branchRootId: stranger.user.id });
    expect(badBranch.statusCode).toBe(400);
    expect(badBranch.json().details[0].field).toBe('body.branchRootId');
  });

  it('an event manager starts a drill on a branch with the defaults; the snapshot ignores later tree edits', async () => {
    const res = await start(h.a2, { branchRootId: org.a1.id });
    expect(res.statusCode).toBe(200);
    const event = res.json().data;
    expect(event).toMatchObject({
      kind: 'drill',
      state: 'running',
      escalationDelayMinutes: 15,
      branchRootId: org.a1.id,
      totals: { total: 5, safe: 0, needHelp: 0, noAnswer: 5 },
      options: [
        { id: 'safe', label: 'Safe', needsHelp: false },
        { id: 'need_help', label: 'Need help', needsHelp: true },
      ],
    });
    expect(event.abilities).toMatchObject({ close: true, remind: true, report: true, answer: false });
    // Edit the tree after the start: c3 moves into the branch, c2 leaves the tree.
    await req('PATCH', `/api/calltree/trees/${treeId}/members/${org.c3.id}`, admin.headers, {
      managerId: org.b1.id,
    });
    await req('DELETE', `/api/calltree/trees/${treeId}/members/${org.c2.id}`, admin.headers);
    const detail = (await req('GET', `/api/calltree/events/${event.id}`, admin.headers)).json().data;
    expect(detail.scopeTotals.total).toBe(5);
    expect(detail.people.items.map((p: { id: string }) => p.id).sort()).toEqual(
      [org.a1.id, org.b1.id, org.b2.id, org.c1.id, org.c2.id].sort(),
    );
    expect((await req('GET', `/api/calltree/events/${event.id}`, h.c3)).statusCode).toBe(404);
    expect((await answer(h.c3, event.id, { optionId: 'safe' })).statusCode).toBe(404);
    // Put the tree back for the other tests.
    await req('PATCH', `/api/calltree/trees/${treeId}/members/${org.c3.id}`, admin.headers, {
      managerId: org.b3.id,
    });
    await req('POST', `/api/calltree/trees/${treeId}/members`, admin.headers, {
      userId: org.c2.id,
      managerId: org.b1.id,
    });
    // Targeted people were told in-app, with a domain event in their own room.
    const notes = await server.ctx.db.kysely
      .selectFrom('notifications')
      .select('user_id')
      .where('kind', '=', 'calltree.started')
      .where('data', 'like', `%${event.id}%`)
      .execute();
    expect(notes.map((n) => n.user_id).sort()).toEqual(
      [org.a1.id, org.b1.id, org.b2.id, org.c1.id, org.c2.id].sort(),
    );
    const roomEvents = await server.ctx.db.kysely
      .selectFrom('events')
      .select('type')
      .where('room', '=', `user:${org.c1.id}`)
      .execute();
    expect(roomEvents.map((e) => e.type)).toContain('notification.created');
  });

  it('shows the live roll-up: totals, branches, filters, need help first, then no answer with manager and phone', async () => {
    const event = (await start(admin.headers, { kind: 'real' })).json().data;
    expect((await answer(h.c1, event.id, { optionId: 'safe' })).statusCode).toBe(200);
    expect(
      (await answer(h.c3, event.id, { optionId: 'need_help', note: 'Stuck on floor 3' })).statusCode,
    ).toBe(200);
    expect((await answer(h.a2, event.id, { optionId: 'safe' })).statusCode).toBe(200);
    const res = await req('GET', `/api/calltree/events/${event.id}`, admin.headers);
    expect(res.statusCode).toBe(200);
    const d = res.json().data;
    expect(d.scope).toBe('event');
    expect(d.totals).toEqual({ total: 9, safe: 2, needHelp: 1, noAnswer: 6 });
    expect(d.byOption).toEqual({ safe: 2, need_help: 1 });
    expect(d.people.items[0]).toMatchObject({
      id: org.c3.id,
      status: 'need_help',
      note: 'Stuck on floor 3',
      managerId: org.b3.id,
      managerName: org.b3.display_name,
      phone: org.c3.phone,
    });
    expect(d.people.items.slice(1, 7).every((p: { status: string }) => p.status === 'no_answer')).toBe(true);
    const c2 = d.people.items.find((p: { id: string }) => p.id === org.c2.id);
    expect(c2).toMatchObject({ managerName: org.b1.display_name, managerPhone: org.b1.phone });
    const branch = (id: string) => d.branches.find((b: { id: string }) => b.id === id);
    expect(branch(org.ceo.id).totals).toEqual({ total: 9, safe: 2, needHelp: 1, noAnswer: 6 });
    expect(branch(org.a2.id).totals).toEqual({ total: 3, safe: 1, needHelp: 1, noAnswer: 1 });
    // The top and the level under it; deeper branches are read when opened (next test).
    expect(d.branches.map((b: { id: string; subBranches: number }) => [b.id, b.subBranches])).toEqual([
      [org.ceo.id, 2],
      ...[
        [org.a1.id, 1],
        [org.a2.id, 1],
      ].sort((a, b) => (branch(a[0] as string).displayName < branch(b[0] as string).displayName ? -1 : 1)),
    ]);
    expect(d.departments).toEqual([
      { name: 'Executive', count: 1 },
      { name: 'Finance', count: 3 },
      { name: 'Operations', count: 5 },
    ]);
    const finance = (
      await req('GET', `/api/calltree/events/${event.id}?department=Finance&status=no_answer`, admin.headers)
    ).json().data;
    expect(finance.scopeTotals).toEqual({ total: 3, safe: 1, needHelp: 1, noAnswer: 1 });
    expect(finance.people.items.map((p: { id: string }) => p.id)).toEqual([org.b3.id]);
    const badStatus = await req('GET', `/api/calltree/events/${event.id}?status=maybe`, admin.headers);
    expect(badStatus.statusCode).toBe(400);
    expect(badStatus.json().details[0].field).toBe('query.status');

    // Paging through the people list with a cursor gives everyone once, in the same order.
    const first = (await req('GET', `/api/calltree/events/${event.id}/people?limit=4`, admin.headers)).json()
      .data;
    const second = (
      await req(
        'GET',
        `/api/calltree/events/${event.id}/people?limit=10&cursor=${first.nextCursor}`,
        admin.headers,
      )
    ).json().data;
    expect(second.nextCursor).toBeNull();
    expect([...first.items, ...second.items].map((p: { id: string }) => p.id)).toEqual(
      d.people.items.map((p: { id: string }) => p.id),
    );
    const badCursor = await req('GET', `/api/calltree/events/${event.id}/people?cursor=zzz`, admin.headers);
    expect(badCursor.statusCode).toBe(400);

    // A manager sees their own branch; a person without reports sees themselves; strangers nothing.
    const mine = (await req('GET', `/api/calltree/events/${event.id}`, h.b1)).json().data;
    expect(mine.scope).toBe('branch');
    expect(mine.scopeTotals).toEqual({ total: 3, safe: 1, needHelp: 0, noAnswer: 2 });
    expect(mine.abilities).toMatchObject({ close: false, report: false, answer: true, answerOnBehalf: true });
    const self = (await req('GET', `/api/calltree/events/${event.id}`, h.c1)).json().data;
    expect(self.scope).toBe('self');
    expect(self.myStatus).toBe('safe');
    expect(self.myAnswer).toMatchObject({ optionId: 'safe', onBehalf: false, current: true });
    expect((await req('GET', `/api/calltree/events/${event.id}`, stranger.headers)).statusCode).toBe(404);
    expect((await req('GET', `/api/calltree/events/${event.id}`)).statusCode).toBe(401);
    expect((await req('GET', `/api/calltree/events/${event.id}/people`, stranger.headers)).statusCode).toBe(
      404,
    );

    // The realtime registry's view agrees.
    expect(await canSeeCallEvent(server.ctx.db.kysely, org.c1, event.id)).toBe(true);
    expect(await canSeeCallEvent(server.ctx.db.kysely, stranger.user, event.id)).toBe(false);
    expect(await visibleCallEventIds(server.ctx.db.kysely, org.c1)).toContain(event.id);
    expect(await visibleCallEventIds(server.ctx.db.kysely, stranger.user)).not.toContain(event.id);
  });

  it('sends the first people with the roll-up, and the list goes on from its cursor', async () => {
    const db = server.ctx.db.kysely;
    const top = await buildUser(db, { display_name: 'Top of sixty' });
    for (let i = 0; i < 59; i++) {
      await buildUser(db, {
        manager_subject: top.subject,
        display_name: `Report ${String(i).padStart(2, '0')}`,
      });
    }
    const tree = await req('POST', '/api/calltree/trees', admin.headers, {
      name: 'Sixty',
      rootUserId: top.id,
    });
    const event = (
      await req('POST', `/api/calltree/trees/${tree.json().data.tree.id}/events`, admin.headers, {
        title: 'Sixty people',
        message: 'Answer here.',
        kind: 'drill',
      })
    ).json().data;
    const first = (await req('GET', `/api/calltree/events/${event.id}`, admin.headers)).json().data.people;
    expect(first.items).toHaveLength(ROLLUP_FIRST_PEOPLE);
    expect(first.nextCursor).not.toBeNull();
    const rest = (
      await req('GET', `/api/calltree/events/${event.id}/people?cursor=${first.nextCursor}`, admin.headers)
    ).json().data;
    expect(rest.nextCursor).toBeNull();
    const ids = [...first.items, ...rest.items].map((p: { id: string }) => p.id);
    expect(ids).toHaveLength(60);
    expect(new Set(ids).size).toBe(60);
  });

  it("opens a branch: the branches directly under it with their counts, within the caller's scope only", async () => {
    const event = (await start(admin.headers, { kind: 'real' })).json().data;
    expect((await answer(h.c1, event.id, { optionId: 'safe' })).statusCode).toBe(200);
    expect((await answer(h.c3, event.id, { optionId: 'need_help' })).statusCode).toBe(200);
    const branches = (headers: object, managerId: string, query = '') =>
      req('GET', `/api/calltree/events/${event.id}/branches/${managerId}${query}`, headers);

    const underA1 = await branches(admin.headers, org.a1.id);
    expect(underA1.statusCode).toBe(200);
    expect(underA1.json().data.items).toEqual([
      {
        id: org.b1.id,
        displayName: org.b1.display_name,
        managerId: org.a1.id,
        depth: 2,
        subBranches: 0,
        totals: { total: 3, safe: 1, needHelp: 0, noAnswer: 2 },
      },
    ]);
    // The department filter counts only its people; the branches stay.
    const finance = (await branches(admin.headers, org.a2.id, '?department=Finance')).json().data.items;
    expect(finance.map((b: { id: string; totals: object }) => [b.id, b.totals])).toEqual([
      [org.b3.id, { total: 2, safe: 0, needHelp: 1, noAnswer: 1 }],
    ]);
    // Someone without reports has an empty list; the event's manager sees every branch.
    expect((await branches(admin.headers, org.c1.id)).json().data.items).toEqual([]);
    expect((await branches(h.a2, org.a1.id)).json().data.items.map((b: { id: string }) => b.id)).toEqual([
      org.b1.id,
    ]);

    // A manager reads only their own part: B1 has no branch under them, A1 and A2 are outside it.
    expect((await branches(h.b1, org.b1.id)).json().data.items).toEqual([]);
    const outside = await branches(h.b1, org.a1.id);
    expect(outside.statusCode).toBe(404);
    expect(outside.json().message).toBe('This branch is not in your part of the event.');
    expect((await branches(h.c1, org.b1.id)).statusCode).toBe(404);

    expect((await branches({}, org.a1.id)).statusCode).toBe(401);
    expect((await branches(stranger.headers, org.a1.id)).statusCode).toBe(404);
    expect((await branches(admin.headers, 'nobody')).statusCode).toBe(404);
    const bad = await branches(admin.headers, org.a1.id, `?department=${'x'.repeat(201)}`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].field).toBe('query.department');
  });
  it('lists running events and past ones with final numbers; pending ones for the banner', async () => {
    const event = (await start(h.a2, { title: 'Flood drill' })).json().data;
    const pending = (await req('GET', '/api/calltree/events/pending', h.c2)).json().data;
    expect(pending.map((e: { id: string }) => e.id)).toContain(event.id);
    await answer(h.c2, event.id, { optionId: 'safe' });
    const after = (await req('GET', '/api/calltree/events/pending', h.c2)).json().data;
    expect(after.map((e: { id: string }) => e.id)).not.toContain(event.id);
    const running = (await req('GET', '/api/calltree/events?state=running&limit=1', h.c2)).json().data;
    expect(running.items[0].id).toBe(event.id);
    expect(running.nextCursor).not.toBeNull();
    const next = (
      await req('GET', `/api/calltree/events?state=running&cursor=${running.nextCursor}`, h.c2)
    ).json().data;
    expect(next.items.map((e: { id: string }) => e.id)).not.toContain(event.id);
    expect((await req('GET', '/api/calltree/events', stranger.headers)).json().data.items).toEqual([]);
    expect((await req('GET', '/api/calltree/events?state=open', h.c2)).statusCode).toBe(400);

    // Closing: only event managers and admins; then it is frozen.
    expect((await req('POST', `/api/calltree/events/${event.id}/close`)).statusCode).toBe(401);
    expect((await req('POST', `/api/calltree/events/${event.id}/close`, stranger.headers)).statusCode).toBe(
      404,
    );
    expect((await req('POST', `/api/calltree/events/${event.id}/close`, h.b1)).statusCode).toBe(403);
    const closed = await req('POST', `/api/calltree/events/${event.id}/close`, h.a2);
    expect(closed.statusCode).toBe(200);
    expect(closed.json().data).toMatchObject({
      state: 'closed',
      totals: { total: 9, safe: 1, noAnswer: 8 },
      abilities: { close: false, remind: false, answer: false },
    });
    expect((await req('POST', `/api/calltree/events/${event.id}/close`, h.a2)).statusCode).toBe(409);
    expect((await answer(h.c1, event.id, { optionId: 'safe' })).statusCode).toBe(409);
    expect((await req('POST', `/api/calltree/events/${event.id}/reminders`, h.a2)).statusCode).toBe(409);
    const past = (await req('GET', '/api/calltree/events?state=closed', h.c2)).json().data;
    expect(past.items.find((e: { id: string }) => e.id === event.id).totals).toEqual({
      total: 9,
      safe: 1,
      needHelp: 0,
      noAnswer: 8,
    });
    const logged = await server.ctx.db.kysely
      .selectFrom('events')
      .select('type')
      .where('room', '=', `callevent:${event.id}`)
      .orderBy('seq')
      .execute();
    expect(logged.map((e) => e.type)).toEqual([
      'callevent.started',
      'callevent.answered',
      'callevent.closed',
    ]);
  });

  it('lists, a page at a time, exactly the events the one visibility rule lets each person see', async () => {
    const finance = (await start(h.a2, { title: 'Finance drill', branchRootId: org.b3.id })).json().data;
    const operations = (await start(admin.headers, { title: 'Ops drill', branchRootId: org.b1.id })).json()
      .data;
    const db = server.ctx.db.kysely;
    const running = new Set(
      (await db.selectFrom('call_events').select('id').where('status', '=', 'running').execute()).map(
        (r) => r.id,
      ),
    );
    const listAll = async (headers: object) => {
      const ids: string[] = [];
      let cursor: string | null = null;
      do {
        const res = await req(
          'GET',
          `/api/calltree/events?state=running&limit=1${cursor ? `&cursor=${cursor}` : ''}`,
          headers,
        );
        expect(res.statusCode).toBe(200);
        const page: { items: { id: string }[]; nextCursor: string | null } = res.json().data;
        ids.push(...page.items.map((e) => e.id));
        cursor = page.nextCursor;
      } while (cursor);
      return ids;
    };
    for (const [user, headers] of [
      [admin.user, admin.headers],
      [org.a2, h.a2],
      [org.c3, h.c3],
      [org.c1, h.c1],
      [stranger.user, stranger.headers],
    ] as const) {
      const listed = await listAll(headers);
      const visible = (await visibleCallEventIds(db, user)).filter((id) => running.has(id));
      expect(listed, user.display_name).toEqual(visible);
      expect(new Set(listed).size).toBe(listed.length);
    }
    // The event manager sees both (their tree), each targeted person only the one that targets them.
    expect(await listAll(h.a2)).toEqual(expect.arrayContaining([finance.id, operations.id]));
    const c3 = await listAll(h.c3);
    expect(c3).toContain(finance.id);
    expect(c3).not.toContain(operations.id);
    expect(await listAll(stranger.headers)).toEqual([]);
  });

  it('refuses a cursor the events list did not give: 400 naming query.cursor, before any query', async () => {
    expect((await req('GET', '/api/calltree/events')).statusCode).toBe(401);
    for (const cursor of [
      'zzz',
      // An id made up by the client, in the shape of the list's old cursor.
      Buffer.from('0000000000zz').toString('base64url'),
      Buffer.from(JSON.stringify([1])).toString('base64url'),
      Buffer.from(JSON.stringify(['a', 'b'])).toString('base64url'),
      'not a cursor!',
    ]) {
      const res = await req('GET', `/api/calltree/events?cursor=${encodeURIComponent(cursor)}`, h.a2);
      expect(res.statusCode, cursor).toBe(400);
      expect(res.json().details[0], cursor).toEqual({ field: 'query.cursor', reason: expect.any(String) });
    }
    const bad = await req('GET', '/api/calltree/events?limit=0', h.a2);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].field).toBe('query.limit');
  });

  it('reminds only the people without an answer', async () => {
    const event = (await start(admin.headers, { branchRootId: org.b1.id })).json().data;
    await answer(h.c1, event.id, { optionId: 'safe' });
    expect(
      (await req('POST', `/api/calltree/events/${event.id}/reminders`, stranger.headers)).statusCode,
    ).toBe(404);
    expect((await req('POST', `/api/calltree/events/${event.id}/reminders`, h.c1)).statusCode).toBe(403);
    const res = await req('POST', `/api/calltree/events/${event.id}/reminders`, admin.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ recipients: 2 });
    const reminded = await server.ctx.db.kysely
      .selectFrom('notifications')
      .select('user_id')
      .where('kind', '=', 'calltree.reminder')
      .where('data', 'like', `%${event.id}%`)
      .execute();
    expect(reminded.map((r) => r.user_id).sort()).toEqual([org.b1.id, org.c2.id].sort());
  });

  it('exports notes that start a formula on any line as text', async () => {
    const event = (await start(admin.headers, { branchRootId: org.b1.id })).json().data;
    await answer(h.c1, event.id, { optionId: 'need_help', note: '=1+1\n@SUM(A1)\u2028-2' });
    const csv = await req('GET', `/api/calltree/events/${event.id}/report.csv`, admin.headers);
    const row = Papa.parse<string[]>(csv.body.replace(/^\uFEFF/, '').trim()).data.find(
      (r) => r[1] === org.c1.email,
    );
    expect(row?.[6]).toBe("'=1+1\n'@SUM(A1)\u2028'-2");
  });

  it('exports the event as CSV matching the roll-up, and summarises time to 50/90/100 %', async () => {
    const event = (await start(admin.headers, { branchRootId: org.b1.id })).json().data;
    await answer(h.c1, event.id, {
      optionId: 'need_help',
      note: '=HYPERLINK("x"), hurt ankle',
      location: 'อาคาร B ชั้น 3',
    });
    await answer(h.b1, event.id, { optionId: 'safe', personId: org.c2.id, reachedVia: 'phone' });
    // A known instant for the time columns, and a Thai name to come back whole.
    const thaiName = 'สมหญิง รักษ์ไทย';
    await server.ctx.db.kysely
      .updateTable('call_event_targets')
      .set({ answered_at: '2026-11-25T17:30:05.000Z' })
      .where('event_id', '=', event.id)
      .where('user_id', '=', org.c1.id)
      .execute();
    await server.ctx.db.kysely
      .updateTable('users')
      .set({ display_name: thaiName })
      .where('id', '=', org.c1.id)
      .execute();
    let csv: Awaited<ReturnType<typeof req>>;
    try {
      csv = await req('GET', `/api/calltree/events/${event.id}/report.csv`, admin.headers);
    } finally {
      await server.ctx.db.kysely
        .updateTable('users')
        .set({ display_name: org.c1.display_name })
        .where('id', '=', org.c1.id)
        .execute();
    }
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    // Excel reads a CSV as UTF-8 only after a byte-order mark.
    expect([...csv.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(csv.rawPayload);
    expect(text.startsWith('\uFEFF')).toBe(true);
    const rows = Papa.parse<string[]>(text.slice(1).trim()).data;
    expect(rows[0]).toEqual([
      'person',
      'email',
      'phone',
      'department',
      'manager',
      'status',
      'note',
      'location',
      'answered at (UTC)',
      'answered at (Asia/Bangkok)',
      'answered by',
      'escalations',
    ]);
    expect(rows[1]).toEqual([
      thaiName,
      org.c1.email,
      // A leading + would start a formula in a spreadsheet, so it is neutralised like any cell.
      `'${org.c1.phone}`,
      'Operations',
      org.b1.display_name,
      'Need help',
      // A note that a spreadsheet would run as a formula is neutralised.
      `'=HYPERLINK("x"), hurt ankle`,
      'อาคาร B ชั้น 3',
      '2026-11-25T17:30:05.000Z',
      // Bangkok is UTC+7: the next morning there.
      '2026-11-26 00:30:05',
      thaiName,
      '0',
    ]);
    // The top of the targeted branch has no manager inside the event, and no answer: empty cells.
    expect(rows[2]).toEqual([
      org.b1.display_name,
      org.b1.email,
      `'${org.b1.phone}`,
      'Operations',
      '',
      'No answer',
      '',
      '',
      '',
      '',
      '',
      expect.any(String),
    ]);
    expect(rows[3]![5]).toBe('Safe');
    expect(rows[3]![10]).toBe(`${org.b1.display_name} (on behalf, phone)`);
    expect(rows[3]![11]).toBe('0');
    const utc = Date.parse(rows[3]![8]!);
    expect(rows[3]![9]).toBe(new Date(utc + 7 * 3600_000).toISOString().slice(0, 19).replace('T', ' '));
    expect((await req('GET', `/api/calltree/events/${event.id}/report.csv`, h.b1)).statusCode).toBe(403);
    expect(
      (await req('GET', `/api/calltree/events/${event.id}/report.csv`, stranger.headers)).statusCode,
    ).toBe(404);

    const summary = await req('GET', `/api/calltree/events/${event.id}/summary`, admin.headers);
    expect(summary.statusCode).toBe(200);
    const s = summary.json().data;
    expect(s.totals).toEqual({ total: 3, safe: 1, needHelp: 1, noAnswer: 1 });
    expect(s.secondsTo50).toBeGreaterThanOrEqual(0);
    expect(s.secondsTo90).toBeNull();
    expect(s.secondsTo100).toBeNull();
    expect(s.onBehalf).toBe(1);
    await answer(h.b1, event.id, { optionId: 'safe' });
    const full = (await req('GET', `/api/calltree/events/${event.id}/summary`, admin.headers)).json().data;
    expect(full.secondsTo100).toBeGreaterThanOrEqual(full.secondsTo50);
    expect((await req('GET', `/api/calltree/events/${event.id}/summary`, h.c1)).statusCode).toBe(403);
  });
});
