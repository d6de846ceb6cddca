import { randomUUID } from 'node:crypto';
import { RealtimeCloseCode, type ServerMessage } from '@btalk/contracts';
import { decodeJwt } from 'jose';
import { afterEach, beforeAll, expect, it, vi } from 'vitest';
import { sessionRevoker } from '../commands/sessionCommands.ts';
import { transact } from '../commands/transact.ts';
import { buildOrg, headersFor } from '../test/calltree.ts';
import { describeEachDatabase } from '../test/db.ts';
import { useTestServer } from '../test/server.ts';
import { type SignedIn, signedIn } from '../test/session.ts';
import { record, settle, TestClient } from './testing.ts';

const API_KEY = 'btalk-web-development-key';

const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
});

type EventMessage = Extract<ServerMessage, { type: 'event' }>;
const isEvent = (type: string, room?: string) => (m: ServerMessage) =>
  m.type === 'event' && m.name === type && (room === undefined || m.room === room);

describeEachDatabase('realtime rooms of topics, call-tree events and sessions', (kind) => {
  const server = useTestServer(kind);
  let url = '';
  beforeAll(async () => {
    url = await server.app.listen({ port: 0, host: '127.0.0.1' });
  });
  const connect = async (who: SignedIn | { token: string }) => {
    const c = new TestClient(url);
    clients.push(c);
    await c.hello(who.token, API_KEY, null);
    return c;
  };
  const api = (
    method: 'POST' | 'PUT' | 'DELETE',
    path: string,
    who: { headers: Record<string, string> },
    payload?: object,
  ) => server.request({ method, url: `/api${path}`, headers: who.headers, ...(payload ? { payload } : {}) });
  const post = async (who: SignedIn, topicId: string, body: string) => {
    const res = await api('POST', `/topics/${topicId}/posts`, who, { clientId: randomUUID(), body });
    expect(res.statusCode).toBe(200);
  };

  it('streams a members-only topic to its members only, from the moment they join until they leave', async () => {
    const alice = await signedIn(server);
    const bob = await signedIn(server);
    const created = await api('POST', '/topics', alice, { title: 'Private', visibility: 'members' });
    const topicId = created.json().data.id as string;
    const room = `topic:${topicId}`;
    const aliceSocket = await connect(alice);
    const bobSocket = await connect(bob);

    await post(alice, topicId, 'before bob');
    await aliceSocket.waitFor(isEvent('post.created', room));
    await settle(150);
    expect(bobSocket.events().filter((e) => e.room === room)).toHaveLength(0);

    expect(
      (await api('POST', `/topics/${topicId}/members`, alice, { userIds: [bob.user.id] })).statusCode,
    ).toBe(200);
    await bobSocket.waitFor(isEvent('me.membership_added'));
    await post(alice, topicId, 'hello bob');
    const seen = await bobSocket.waitFor<EventMessage>(isEvent('post.created', room));
    expect(JSON.stringify(seen.payload)).toContain('hello bob');
    expect(JSON.stringify(bobSocket.events())).not.toContain('before bob');

    expect((await api('DELETE', `/topics/${topicId}/members/${bob.user.id}`, alice)).statusCode).toBe(200);
    await bobSocket.waitFor(isEvent('me.membership_removed'));
    await post(alice, topicId, 'after bob left');
    await aliceSocket.waitFor(
      (m) => isEvent('post.created', room)(m) && JSON.stringify(m).includes('after bob left'),
    );
    await settle(150);
    expect(JSON.stringify(bobSocket.events())).not.toContain('after bob left');
  });

  it('brings a new organisation-wide topic to every connection', async () => {
    const author = await signedIn(server);
    const reader = await signedIn(server);
    const readerSocket = await connect(reader);
    const created = await api('POST', '/topics', author, { title: 'Everyone', visibility: 'organisation' });
    const topicId = created.json().data.id as string;
    await post(author, topicId, 'news for all');
    const seen = await readerSocket.waitFor<EventMessage>(isEvent('post.created', `topic:${topicId}`));
    expect(JSON.stringify(seen.payload)).toContain('news for all');
  });

  it('streams a started call-tree event to the people it targets and its managers, not to strangers', async () => {
    const admin = await signedIn(server, { role: 'admin' });
    const stranger = await signedIn(server);
    const org = await buildOrg(server);
    const c1 = { token: (await headersFor(server, org.c1)).authorization.slice('Bearer '.length) };
    const b1 = { token: (await headersFor(server, org.b1)).authorization.slice('Bearer '.length) };
    const c1Socket = await connect(c1);
    const b1Socket = await connect(b1);
    const strangerSocket = await connect(stranger);
    const tree = await api('POST', '/calltree/trees', admin, { name: 'Office', rootUserId: org.ceo.id });
    const treeId = tree.json().data.tree.id as string;
    const started = await api('POST', `/calltree/trees/${treeId}/events`, admin, {
      title: 'Fire drill',
      message: 'Leave by the stairs.',
      kind: 'drill',
    });
    const eventId = started.json().data.id as string;
    const room = `callevent:${eventId}`;
    const answered = await server.request({
      method: 'POST',
      url: `/api/calltree/events/${eventId}/answers`,
      headers: await headersFor(server, org.c1),
      payload: { id: randomUUID(), optionId: 'safe' },
    });
    expect(answered.statusCode).toBe(200);
    await c1Socket.waitFor(isEvent('callevent.answered', room));
    await b1Socket.waitFor(isEvent('callevent.answered', room));
    await settle(150);
    expect(strangerSocket.events().filter((e) => e.room === room)).toHaveLength(0);
  });

  /** A started event on a tree of a new organisation, with sockets for some of its people. */
  const startedEvent = async (admin: SignedIn) => {
    const org = await buildOrg(server);
    const tree = await api('POST', '/calltree/trees', admin, { name: 'Office', rootUserId: org.ceo.id });
    const treeId = tree.json().data.tree.id as string;
    const start = async () => {
      const started = await api('POST', `/calltree/trees/${treeId}/events`, admin, {
        title: 'Fire drill',
        message: 'Leave by the stairs.',
        kind: 'drill',
      });
      expect(started.statusCode).toBe(200);
      return started.json().data.id as string;
    };
    return { org, treeId, start };
  };
  const tokenOf = async (user: SignedIn['user']) => ({
    token: (await headersFor(server, user)).authorization.slice('Bearer '.length),
  });
  const answer = async (user: SignedIn['user'], eventId: string) => {
    const res = await server.request({
      method: 'POST',
      url: `/api/calltree/events/${eventId}/answers`,
      headers: await headersFor(server, user),
      payload: { id: randomUUID(), optionId: 'safe' },
    });
    expect(res.statusCode).toBe(200);
  };
  const answeredAbout = (socket: TestClient, personId: string) =>
    socket
      .events()
      .filter(
        (e) => e.name === 'callevent.answered' && (e.payload as { personId: string }).personId === personId,
      );

  it('sends an answer live only to those who may read it over HTTP: the person, the managers above, who runs the event', async () => {
    const admin = await signedIn(server, { role: 'admin' });
    const { org, start } = await startedEvent(admin);
    const eventId = await start();
    const room = `callevent:${eventId}`;
    const sockets = Object.fromEntries(
      await Promise.all(
        (['c1', 'c2', 'b1', 'a1', 'a2', 'ceo'] as const).map(async (n) => [
          n,
          await connect(await tokenOf(org[n])),
        ]),
      ),
    ) as Record<'c1' | 'c2' | 'b1' | 'a1' | 'a2' | 'ceo', TestClient>;
    const adminSocket = await connect(admin);

    await answer(org.c1, eventId);
    for (const n of ['c1', 'b1', 'a1', 'ceo'] as const) {
      await sockets[n].waitFor(
        (m) => isEvent('callevent.answered', room)(m) && answeredAbout(sockets[n], org.c1.id).length > 0,
      );
    }
    await adminSocket.waitFor(isEvent('callevent.answered', room));
    // Over HTTP c2 (c1's colleague) and a2 (another branch) see only their own branch. Their own
    // answers come after c1's in the log: once those arrive, c1's would have arrived before them.
    await answer(org.c2, eventId);
    await answer(org.a2, eventId);
    await sockets.c2.waitFor(
      (m) => isEvent('callevent.answered', room)(m) && answeredAbout(sockets.c2, org.c2.id).length > 0,
    );
    await sockets.a2.waitFor(
      (m) => isEvent('callevent.answered', room)(m) && answeredAbout(sockets.a2, org.a2.id).length > 0,
    );
    expect(answeredAbout(sockets.c2, org.c1.id)).toHaveLength(0);
    expect(answeredAbout(sockets.a2, org.c1.id)).toHaveLength(0);
    expect(answeredAbout(sockets.a2, org.c2.id)).toHaveLength(0);
    // The managers above c2 get c2's; the chain goes with the event, nothing else about people.
    expect(answeredAbout(sockets.b1, org.c2.id)).toHaveLength(1);
    // What concerns the whole event still reaches everyone it targets.
    expect((await api('POST', `/calltree/events/${eventId}/close`, admin)).statusCode).toBe(200);
    await sockets.c2.waitFor(isEvent('callevent.closed', room));
    await sockets.a2.waitFor(isEvent('callevent.closed', room));
  });

  it('stops sending the answers of an event to a person whose event manager role is taken away, at once', async () => {
    const admin = await signedIn(server, { role: 'admin' });
    const { org, treeId, start } = await startedEvent(admin);
    // b3 manages c3 (Finance) and is made an event manager of the tree: they read every answer.
    const grant = await api('PUT', `/calltree/trees/${treeId}/event-managers/${org.b3.id}`, admin);
    expect(grant.statusCode).toBe(200);
    const eventId = await start();
    const room = `callevent:${eventId}`;
    const b3Socket = await connect(await tokenOf(org.b3));
    await answer(org.c1, eventId);
    await b3Socket.waitFor(
      (m) => isEvent('callevent.answered', room)(m) && answeredAbout(b3Socket, org.c1.id).length > 0,
    );

    expect(
      (await api('DELETE', `/calltree/trees/${treeId}/event-managers/${org.b3.id}`, admin)).statusCode,
    ).toBe(200);
    await b3Socket.waitFor(isEvent('access.changed', `user:${org.b3.id}`));
    await answer(org.c2, eventId);
    await answer(org.c3, eventId);
    // Still targeted: the room stays, but only their own branch's answers (c3) come through.
    await b3Socket.waitFor(
      (m) => isEvent('callevent.answered', room)(m) && answeredAbout(b3Socket, org.c3.id).length > 0,
    );
    expect(answeredAbout(b3Socket, org.c2.id)).toHaveLength(0);
  });

  it('closes open sockets when new terms are published, until the person accepts them', async () => {
    const admin = await signedIn(server, { role: 'admin' });
    const person = await signedIn(server);
    const socket = await connect(person);
    const published = await api('POST', '/terms/versions', admin, {
      th: { title: 'ข้อกำหนด', body: 'ฉบับใหม่' },
      en: { title: 'Terms', body: 'A new version.' },
      client: 'web',
    });
    expect(published.statusCode).toBe(201);
    const closed = await socket.closed;
    expect(closed.code).toBe(RealtimeCloseCode.termsNotAccepted);
    const again = new TestClient(url);
    clients.push(again);
    await expect(again.hello(person.token, API_KEY, null)).rejects.toThrow(/4404/);
  });

  it("refuses a revoked session's access tokens for new sockets and closes its open ones", async () => {
    const person = await signedIn(server);
    const socket = await connect(person);
    const sid = String(decodeJwt(person.token).sid);
    await transact(server.ctx, (trx) => sessionRevoker(trx, sid, 'rotated refresh token reused'));
    expect((await socket.closed).code).toBe(RealtimeCloseCode.unauthenticated);
    const again = new TestClient(url);
    clients.push(again);
    await expect(again.hello(person.token, API_KEY, null)).rejects.toThrow(/4001.*session has ended/);
    const me = await server.request({ method: 'GET', url: '/api/me', headers: person.headers });
    expect(me.statusCode).toBe(401);
  });

  it('opens a new organisation-wide topic to every socket without asking each socket again', async () => {
    const author = await signedIn(server);
    const readers = await Promise.all([signedIn(server), signedIn(server), signedIn(server)]);
    const sockets = await Promise.all(readers.map((r) => connect(r)));
    const access = vi.spyOn(server.ctx.rooms, 'access');
    try {
      const created = await api('POST', '/topics', author, { title: 'For all', visibility: 'organisation' });
      const topicId = created.json().data.id as string;
      await post(author, topicId, 'to everyone at once');
      for (const socket of sockets) {
        const seen = await socket.waitFor<EventMessage>(isEvent('post.created', `topic:${topicId}`));
        expect(JSON.stringify(seen.payload)).toContain('to everyone at once');
      }
      // The room is everyone's: no socket had its rooms queried again (the cost of a new topic
      // does not grow with the sockets, nor with the topics).
      expect(access).not.toHaveBeenCalled();
    } finally {
      access.mockRestore();
    }
  });

  it('opens a started call-tree event to its audience from its targets, not by asking every socket', async () => {
    const admin = await signedIn(server, { role: 'admin' });
    const stranger = await signedIn(server);
    const { org, start } = await startedEvent(admin);
    const c1Socket = await connect(await tokenOf(org.c1));
    const b1Socket = await connect(await tokenOf(org.b1));
    const strangerSocket = await connect(stranger);
    const adminSocket = await connect(admin);
    const access = vi.spyOn(server.ctx.rooms, 'access');
    try {
      const eventId = await start();
      const room = `callevent:${eventId}`;
      for (const socket of [c1Socket, b1Socket, adminSocket])
        await socket.waitFor(isEvent('callevent.started', room));
      await answer(org.c2, eventId);
      await answer(org.c1, eventId);
      // c1 gets their own answer, not their colleague's; b1 (their manager) and the admin get both.
      await c1Socket.waitFor(
        (m) => isEvent('callevent.answered', room)(m) && answeredAbout(c1Socket, org.c1.id).length > 0,
      );
      expect(answeredAbout(c1Socket, org.c2.id)).toHaveLength(0);
      await b1Socket.waitFor(
        (m) => isEvent('callevent.answered', room)(m) && answeredAbout(b1Socket, org.c1.id).length > 0,
      );
      expect(answeredAbout(b1Socket, org.c2.id)).toHaveLength(1);
      await adminSocket.waitFor(
        (m) => isEvent('callevent.answered', room)(m) && answeredAbout(adminSocket, org.c1.id).length > 0,
      );
      expect(answeredAbout(adminSocket, org.c2.id)).toHaveLength(1);
      expect(access).not.toHaveBeenCalled();
      await settle(100);
      expect(strangerSocket.events().filter((e) => e.room === room)).toHaveLength(0);
    } finally {
      access.mockRestore();
    }
  });

  it('keeps a topic made members-only streaming to its members, and to nobody else', async () => {
    const owner = await signedIn(server);
    const member = await signedIn(server);
    const other = await signedIn(server);
    const created = await api('POST', '/topics', owner, { title: 'Closing', visibility: 'organisation' });
    const topicId = created.json().data.id as string;
    const room = `topic:${topicId}`;
    expect(
      (await api('POST', `/topics/${topicId}/members`, owner, { userIds: [member.user.id] })).statusCode,
    ).toBe(200);
    const memberSocket = await connect(member);
    const otherSocket = await connect(other);
    const made = await server.request({
      method: 'PATCH',
      url: `/api/topics/${topicId}`,
      headers: owner.headers,
      payload: { visibility: 'members' },
    });
    expect(made.statusCode).toBe(200);
    await post(owner, topicId, 'members only now');
    const seen = await memberSocket.waitFor<EventMessage>(
      (m) => isEvent('post.created', room)(m) && JSON.stringify(m).includes('members only now'),
    );
    expect(seen).toBeDefined();
    // The other person's own event comes after the post in the log: once it arrives, the post would have.
    await record(server.ctx, `user:${other.user.id}`, 'test.later');
    await otherSocket.waitFor(isEvent('test.later'));
    expect(JSON.stringify(otherSocket.events())).not.toContain('members only now');
  });

  it('closes the sockets of a session that signs out', async () => {
    const person = await signedIn(server);
    const socket = await connect(person);
    const res = await server.request({
      method: 'POST',
      url: '/api/auth/logout',
      headers: person.headers,
      payload: {},
    });
    expect(res.statusCode).toBe(200);
    expect((await socket.closed).code).toBe(RealtimeCloseCode.unauthenticated);
  });
});
