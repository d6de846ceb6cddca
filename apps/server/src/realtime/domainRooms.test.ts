import { randomUUID } from 'node:crypto';
import { RealtimeCloseCode, type ServerMessage } from '@btalk/contracts';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { buildOrg, headersFor } from '../test/calltree.ts';
import { describeEachDatabase } from '../test/db.ts';
import { useTestServer } from '../test/server.ts';
import { type SignedIn, signedIn } from '../test/session.ts';
import { settle, TestClient } from './testing.ts';

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
    method: 'POST' | 'DELETE',
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
