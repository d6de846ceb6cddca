import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@btalk/contracts';
import { AliasNode, SelectQueryNode, TableNode } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { answerCallEvent } from '../../commands/callResponseRecorder.ts';
import { buildOrg, headersFor, type Org } from '../../test/calltree.ts';
import { describeEachDatabase } from '../../test/db.ts';
import { useTestServer } from '../../test/server.ts';
import { type SignedIn, signedIn } from '../../test/session.ts';

describeEachDatabase('call-tree answers API', (kind) => {
  const server = useTestServer(kind);
  let admin: SignedIn;
  let stranger: SignedIn;
  let org: Org;
  let treeId: string;
  let h: Record<keyof Org, { authorization: string }>;

  const req = (method: 'GET' | 'POST', url: string, headers = {}, payload?: object) =>
    server.request({ method, url, headers, ...(payload ? { payload } : {}) });
  const newEvent = async () =>
    (
      await req('POST', `/api/calltree/trees/${treeId}/events`, admin.headers, {
        title: 'Outage',
        message: 'Power is out in building A.',
        kind: 'real',
      })
    ).json().data as { id: string; startedAt: string };
  const answer = (headers: object, eventId: string, body: object) =>
    req('POST', `/api/calltree/events/${eventId}/answers`, headers, { id: randomUUID(), ...body });
  const person = async (eventId: string, personId: string) =>
    (await req('GET', `/api/calltree/events/${eventId}/people/${personId}`, admin.headers)).json().data;

  beforeAll(async () => {
    admin = await signedIn(server, { role: 'admin' });
    stranger = await signedIn(server);
    org = await buildOrg(server);
    h = Object.fromEntries(
      await Promise.all(Object.entries(org).map(async ([k, u]) => [k, await headersFor(server, u)])),
    ) as typeof h;
    treeId = (
      await req('POST', '/api/calltree/trees', admin.headers, { name: 'Head office', rootUserId: org.ceo.id })
    ).json().data.tree.id;
  });

  it('401 without a session, 404 to strangers, 403 to people who are not the person or above them', async () => {
    const event = await newEvent();
    expect((await answer({}, event.id, { optionId: 'safe' })).statusCode).toBe(401);
    expect((await answer(stranger.headers, event.id, { optionId: 'safe' })).statusCode).toBe(404);
    expect((await answer(admin.headers, event.id, { optionId: 'safe' })).statusCode).toBe(404);
    // A peer, and a manager of another branch, may not answer for c1.
    const peer = await answer(h.c2, event.id, { optionId: 'safe', personId: org.c1.id, reachedVia: 'phone' });
    expect(peer.statusCode).toBe(403);
    const other = await answer(h.a2, event.id, {
      optionId: 'safe',
      personId: org.c1.id,
      reachedVia: 'phone',
    });
    expect(other.statusCode).toBe(403);
    // Nor may a report answer for their manager.
    const up = await answer(h.c1, event.id, { optionId: 'safe', personId: org.b1.id, reachedVia: 'phone' });
    expect(up.statusCode).toBe(403);
    expect((await answer(h.c1, event.id, { optionId: 'safe', personId: stranger.user.id })).statusCode).toBe(
      404,
    );
  });

  it('refuses bad input, naming the field', async () => {
    const event = await newEvent();
    const cases: [object, string][] = [
      [{ optionId: 'maybe' }, 'body.optionId'],
      [{ optionId: 'safe', id: 'short' }, 'body.id'],
      [{ optionId: 'safe', answeredAt: 'yesterday' }, 'body.answeredAt'],
      [{ optionId: 'safe', answeredAt: new Date(Date.now() + 3_600_000).toISOString() }, 'body.answeredAt'],
      [
        { optionId: 'safe', answeredAt: new Date(Date.parse(event.startedAt) - 60_000).toISOString() },
        'body.answeredAt',
      ],
      [{ optionId: 'safe', note: 'x'.repeat(1001) }, 'body.note'],
      [{ optionId: 'safe', personId: org.c1.id }, 'body.reachedVia'],
      [{ optionId: 'safe', personId: org.c1.id, reachedVia: 'pigeon' }, 'body.reachedVia'],
    ];
    for (const [body, field] of cases) {
      const res = await answer(h.b1, event.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().details[0].field).toBe(field);
    }
  });

  it('is idempotent by the client-made id, and refuses the id for a different answer', async () => {
    const event = await newEvent();
    const id = randomUUID();
    const first = await answer(h.c1, event.id, {
      id,
      optionId: 'safe',
      note: 'At home',
      location: 'Nonthaburi',
    });
    const again = await answer(h.c1, event.id, {
      id,
      optionId: 'safe',
      note: 'At home',
      location: 'Nonthaburi',
    });
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.json().data.id).toBe(first.json().data.id);
    expect(first.json().data).toMatchObject({
      clientId: id,
      personId: org.c1.id,
      status: 'safe',
      note: 'At home',
      location: 'Nonthaburi',
      onBehalf: false,
      current: true,
    });
    const reused = await answer(h.c2, event.id, { id, optionId: 'safe' });
    expect(reused.statusCode).toBe(409);
    // Concurrent retries of one answer record it once.
    const racing = randomUUID();
    const results = await Promise.all(
      [1, 2, 3].map(() => answer(h.c2, event.id, { id: racing, optionId: 'need_help' })),
    );
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(new Set(results.map((r) => r.json().data.id)).size).toBe(1);
    expect((await person(event.id, org.c2.id)).answers).toHaveLength(1);
    const totals = (await req('GET', `/api/calltree/events/${event.id}`, admin.headers)).json().data.totals;
    expect(totals).toEqual({ total: 9, safe: 1, needHelp: 1, noAnswer: 7 });
    // Once the event is closed, a retry still gets the answer it recorded; a new answer is refused.
    expect((await req('POST', `/api/calltree/events/${event.id}/close`, admin.headers)).statusCode).toBe(200);
    const afterClose = await answer(h.c1, event.id, { id, optionId: 'safe', note: 'At home' });
    expect(afterClose.statusCode).toBe(200);
    expect(afterClose.json().data.id).toBe(first.json().data.id);
    expect((await answer(h.c1, event.id, { optionId: 'safe' })).statusCode).toBe(409);
    // Closed is said before a bad option, as for an event read closed.
    expect((await answer(h.c3, event.id, { optionId: 'nope' })).statusCode).toBe(409);
  });

  it('writes an own answer to an event seen running without reading the event again, and still sees it close', async () => {
    const event = await newEvent();
    expect((await answer(h.c1, event.id, { optionId: 'safe' })).statusCode).toBe(200);
    const reads: string[] = [];
    const { ctx } = server;
    const watched = {
      ...ctx,
      db: {
        ...ctx.db,
        kysely: ctx.db.kysely.withPlugin({
          transformQuery({ node }) {
            if (SelectQueryNode.is(node)) {
              for (const from of node.from?.froms ?? []) {
                const table = AliasNode.is(from) ? from.node : from;
                if (TableNode.is(table)) reads.push(table.table.identifier.name);
              }
            }
            return node;
          },
          transformResult: async ({ result }) => result,
        }),
      },
    };
    const own = await answerCallEvent(watched, org.c2, event.id, org.c2.id, {
      id: randomUUID(),
      optionId: 'need_help',
    });
    expect(own.recorded.current).toBe(true);
    expect(own.event.id).toBe(event.id);
    // On PostgreSQL the event is not read again (the answer's statement checks it is running);
    // SQLite reads it first, as before.
    expect(reads.includes('call_events')).toBe(kind === 'sqlite');
    // A bad option is still refused, naming the field.
    const bad = await answer(h.c2, event.id, { optionId: 'nope' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('optionId');
    // Closed elsewhere (no request of this instance saw it close): the answer is refused all the same.
    await ctx.db.kysely
      .updateTable('call_events')
      .set({ status: 'closed' })
      .where('id', '=', event.id)
      .execute();
    const late = await answer(h.c3, event.id, { optionId: 'safe' });
    expect(late.statusCode).toBe(409);
    expect((await person(event.id, org.c3.id)).answers).toHaveLength(0);
  });

  it('keeps every change; a manager answers on behalf of a silent report; the person’s own later answer wins', async () => {
    const event = await newEvent();
    // a1 is two levels above c1 in the snapshot.
    const behalfId = randomUUID();
    const behalf = await answer(h.a1, event.id, {
      id: behalfId,
      optionId: 'need_help',
      personId: org.c1.id,
      reachedVia: 'phone',
      note: 'Called: trapped in the lift',
    });
    expect(behalf.statusCode).toBe(200);
    expect(behalf.json().data).toMatchObject({
      onBehalf: true,
      reachedVia: 'phone',
      answeredById: org.a1.id,
    });
    let c1 = await person(event.id, org.c1.id);
    expect(c1.person).toMatchObject({
      status: 'need_help',
      onBehalf: true,
      answeredByName: org.a1.display_name,
    });
    const audited = await server.ctx.db.kysely
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'callevent.answered_on_behalf')
      .where('target', '=', `callevent:${event.id}`)
      .execute();
    expect(audited).toHaveLength(1);
    expect(audited[0]!.actor_id).toBe(org.a1.id);
    expect(JSON.parse(audited[0]!.details)).toMatchObject({ personId: org.c1.id, reachedVia: 'phone' });

    const own = await answer(h.c1, event.id, { optionId: 'safe', note: 'Out now' });
    expect(own.json().data.current).toBe(true);
    const second = await answer(h.c1, event.id, { optionId: 'need_help', note: 'Feeling faint' });
    expect(second.json().data.current).toBe(true);
    // Once the person has answered, a manager may no longer answer for them.
    const late = await answer(h.b1, event.id, {
      optionId: 'safe',
      personId: org.c1.id,
      reachedVia: 'in_person',
    });
    expect(late.statusCode).toBe(409);
    // A retry of the answer given on their behalf before is still answered as it was recorded.
    const retried = await answer(h.a1, event.id, {
      id: behalfId,
      optionId: 'need_help',
      personId: org.c1.id,
      reachedVia: 'phone',
      note: 'Called: trapped in the lift',
    });
    expect(retried.statusCode).toBe(200);
    expect(retried.json().data).toMatchObject({ id: behalf.json().data.id, current: false });

    c1 = await person(event.id, org.c1.id);
    expect(c1.person).toMatchObject({ status: 'need_help', note: 'Feeling faint', onBehalf: false });
    expect(c1.answers.map((a: { note: string; current: boolean }) => [a.note, a.current])).toEqual([
      ['Called: trapped in the lift', false],
      ['Out now', false],
      ['Feeling faint', true],
    ]);
    expect(
      (await req('GET', `/api/calltree/events/${event.id}/people/${org.c1.id}`, stranger.headers)).statusCode,
    ).toBe(404);
    expect((await req('GET', `/api/calltree/events/${event.id}/people/${org.c1.id}`, h.c2)).statusCode).toBe(
      404,
    );
    expect((await req('GET', `/api/calltree/events/${event.id}/people/${org.c1.id}`, h.b1)).statusCode).toBe(
      200,
    );
  });

  it('takes an offline answer with the time it was made; an older one does not override a newer one', async () => {
    const event = await newEvent();
    // Made offline right at the start; the online answer below comes strictly later.
    const madeOffline = new Date(Date.parse(event.startedAt)).toISOString();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await answer(h.c3, event.id, { optionId: 'need_help', note: 'now' });
    const queued = await answer(h.c3, event.id, {
      optionId: 'safe',
      note: 'queued',
      answeredAt: madeOffline,
    });
    expect(queued.statusCode).toBe(200);
    expect(queued.json().data).toMatchObject({ answeredAt: madeOffline, current: false });
    const c3 = await person(event.id, org.c3.id);
    expect(c3.person).toMatchObject({ status: 'need_help', note: 'now' });
    expect(c3.answers).toHaveLength(2);
    const logged = await server.ctx.db.kysely
      .selectFrom('events')
      .select(['type', 'payload'])
      .where('room', '=', `callevent:${event.id}`)
      .where('type', '=', 'callevent.answered')
      .orderBy('seq')
      .execute();
    expect(logged).toHaveLength(2);
    expect(JSON.parse(logged[1]!.payload)).toMatchObject({
      personId: org.c3.id,
      current: false,
      onBehalf: false,
    });
  });
  it('lets a person who has not accepted the terms list and answer a running event aimed at them, and nothing more', async () => {
    // A second organisation in which b1 and c1 have not accepted the current terms yet.
    const o = await buildOrg(server);
    await server.ctx.db.kysely
      .updateTable('users')
      .set({ terms_accepted_version: null })
      .where('id', 'in', [o.b1.id, o.c1.id])
      .execute();
    const [b1, c1] = await Promise.all([headersFor(server, o.b1), headersFor(server, o.c1)]);
    const newcomer = await signedIn(server, {}, { acceptedTerms: false });
    const tree = (
      await req('POST', '/api/calltree/trees', admin.headers, { name: 'Branch office', rootUserId: o.ceo.id })
    ).json().data.tree.id;
    const start = async (title: string) =>
      (
        await req('POST', `/api/calltree/trees/${tree}/events`, admin.headers, {
          title,
          message: 'Everyone out of building B.',
          kind: 'drill',
        })
      ).json().data as { id: string };
    const closed = await start('Yesterday');
    expect((await req('POST', `/api/calltree/events/${closed.id}/close`, admin.headers)).statusCode).toBe(
      200,
    );
    const running = await start('Fire drill');
    const gated = (res: { statusCode: number; json(): { code: number } }) => {
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe(ErrorCode.termsNotAccepted);
    };

    // The banner's list and one's own answer work before the terms are accepted...
    const pending = await req('GET', '/api/calltree/events/pending', c1);
    expect(pending.statusCode).toBe(200);
    expect(pending.json().data.map((e: { id: string }) => e.id)).toEqual([running.id]);
    const own = await answer(c1, running.id, { optionId: 'safe', note: 'At the assembly point' });
    expect(own.statusCode).toBe(200);
    expect(own.json().data).toMatchObject({
      personId: o.c1.id,
      status: 'safe',
      onBehalf: false,
      current: true,
    });
    expect((await req('GET', '/api/calltree/events/pending', c1)).json().data).toEqual([]);
    expect((await person(running.id, o.c1.id)).person).toMatchObject({ status: 'safe' });

    // ...and nothing else: other calls, the roll-up, a person's history, answering on behalf.
    gated(await req('GET', '/api/topics', c1));
    gated(await req('GET', `/api/calltree/events/${running.id}`, c1));
    gated(await req('GET', `/api/calltree/events/${running.id}/people/${o.c1.id}`, c1));
    gated(await answer(b1, running.id, { optionId: 'safe', personId: o.c2.id, reachedVia: 'phone' }));
    expect((await answer(b1, running.id, { optionId: 'need_help' })).statusCode).toBe(200);

    // The usual refusals still apply: a closed event, an event that does not target the person.
    const late = await answer(c1, closed.id, { optionId: 'safe' });
    expect(late.statusCode).toBe(409);
    expect((await answer(newcomer.headers, running.id, { optionId: 'safe' })).statusCode).toBe(404);
    expect((await req('GET', '/api/calltree/events/pending', newcomer.headers)).json().data).toEqual([]);
    gated(await req('GET', '/api/topics', newcomer.headers));

    // Without a session: 401.
    expect((await req('GET', '/api/calltree/events/pending')).statusCode).toBe(401);
    expect((await answer({}, running.id, { optionId: 'safe' })).statusCode).toBe(401);
  });
});
