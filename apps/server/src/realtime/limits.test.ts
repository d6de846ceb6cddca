import { RealtimeCloseCode } from '@btalk/contracts';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../test/db.ts';
import { useTestServer } from '../test/server.ts';
import { signedIn } from '../test/session.ts';
import { TestClient } from './testing.ts';

const API_KEY = 'btalk-web-development-key';

const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
});

describeEachDatabase('realtime limits', (kind) => {
  const server = useTestServer(kind, {
    REALTIME_MAX_SOCKETS_PER_PERSON: '2',
    REALTIME_MESSAGES_PER_10_SECONDS: '5',
  });
  let url = '';
  beforeAll(async () => {
    url = await server.app.listen({ port: 0, host: '127.0.0.1' });
  });
  const client = () => {
    const c = new TestClient(url);
    clients.push(c);
    return c;
  };

  it('closes a person’s socket past the limit with 4429, and takes one again after another closes', async () => {
    const alice = await signedIn(server);
    const bob = await signedIn(server);
    const first = client();
    await first.hello(alice.token, API_KEY);
    const second = client();
    await second.hello(alice.token, API_KEY);
    const third = client();
    await expect(third.hello(alice.token, API_KEY)).rejects.toThrow(/4429/);
    expect(await third.closed).toEqual({
      code: RealtimeCloseCode.tooManyConnections,
      reason: expect.stringContaining('too many connections'),
    });
    // Another person is not affected.
    await client().hello(bob.token, API_KEY);
    // Closing one gives its place back.
    await first.close();
    await client().hello(alice.token, API_KEY);
  });

  it('refuses messages past the limit with an error, and closes a socket that keeps flooding', async () => {
    const { token } = await signedIn(server);
    const c = client();
    await c.hello(token, API_KEY);
    for (let i = 0; i < 5; i++) c.send({ type: 'ping' });
    await c.waitFor(() => c.messages.filter((m) => m.type === 'pong').length === 5);
    c.send({ type: 'ping' });
    const refused = await c.waitFor((m) => m.type === 'error');
    expect(refused).toMatchObject({ type: 'error', reason: 'rateLimited' });
    expect(c.messages.filter((m) => m.type === 'pong')).toHaveLength(5);
    for (let i = 0; i < 10; i++) c.send({ type: 'ping' });
    expect(await c.closed).toEqual({
      code: RealtimeCloseCode.tooManyMessages,
      reason: expect.stringContaining('too many messages'),
    });
    // At most the limit's worth of refusals before the close, and no pong beyond the limit.
    expect(c.messages.filter((m) => m.type === 'error').length).toBeLessThanOrEqual(5);
    expect(c.messages.filter((m) => m.type === 'pong')).toHaveLength(5);
  });
});
