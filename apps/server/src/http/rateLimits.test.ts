import { randomBytes } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { ErrorCode } from '@btalk/contracts';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { type AppContext, createContext } from '../context.ts';
import { newId } from '../ids.ts';
import { describeEachDatabase, openTestDatabase } from '../test/db.ts';
import { freePort, useListeningTestServer } from '../test/listening.ts';
import { redisFor, TEST_REDIS_URL } from '../test/redis.ts';
import { type TestServer, testConfig, useTestServer } from '../test/server.ts';
import { signedIn } from '../test/session.ts';
import { as, buildPost, buildTopic } from '../test/topics.ts';
import { serverVersion } from '../version.ts';

const redisUnreachable = await redisFor('the shared Redis count test');

/** Asserts a 429 in the envelope with a Retry-After in whole seconds, and answers those seconds. */
function expectRateLimited(res: { statusCode: number; headers: Record<string, unknown>; json(): unknown }) {
  expect(res.statusCode).toBe(429);
  const body = res.json() as { code: number; message: string };
  expect(body.code).toBe(ErrorCode.rateLimited);
  const retryAfter = Number(res.headers['retry-after']);
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(body.message).toMatch(/try again in \d+ seconds?/);
  return retryAfter;
}

describeEachDatabase('per-person write limit', (kind) => {
  const server = useTestServer(kind, { WRITE_RATE_LIMIT_PER_MINUTE: '3', UPLOAD_RATE_LIMIT_PER_MINUTE: '1' });

  it('answers 429 with Retry-After once a person passes it, for every write, and not to others', async () => {
    const alice = await signedIn(server);
    const bob = await signedIn(server);
    const topic = await buildTopic(server, alice);
    const post = await buildPost(server, alice, topic.id, 'one');
    await buildPost(server, alice, topic.id, 'two');
    await buildPost(server, alice, topic.id, 'three');

    expectRateLimited(
      await as(server, alice).post(`/api/topics/${topic.id}/posts`, { clientId: newId(), body: 'four' }),
    );
    // Posts, comments and reactions share one count.
    expectRateLimited(
      await as(server, alice).post(`/api/posts/${post.id}/comments`, { clientId: newId(), body: 'hi' }),
    );
    expectRateLimited(
      await as(server, alice).post(`/api/posts/${post.id}/reactions`, { clientId: newId(), emoji: '👍' }),
    );
    // Counted before validation: a bad body is refused for the rate, not the body.
    expectRateLimited(await as(server, alice).post(`/api/topics/${topic.id}/posts`, { body: 42 }));
    // Reading is not limited, and another person writes as usual.
    expect((await as(server, alice).get(`/api/topics/${topic.id}/posts`)).statusCode).toBe(200);
    await buildPost(server, bob, topic.id, 'bob writes');
  });

  it('counts only people: without a session it is still a 401', async () => {
    const alice = await signedIn(server);
    const topic = await buildTopic(server, alice);
    for (let i = 0; i < 4; i++) {
      const res = await as(server, null).post(`/api/topics/${topic.id}/posts`, {
        clientId: newId(),
        body: 'x',
      });
      expect(res.statusCode).toBe(401);
    }
    await buildPost(server, alice, topic.id, 'alice still writes');
  });

  it('limits uploads per person on their own count', async () => {
    const carol = await signedIn(server);
    const topic = await buildTopic(server, carol);
    const upload = () =>
      server.request({
        method: 'POST',
        url: `/api/topics/${topic.id}/attachments`,
        headers: { ...carol.headers, 'content-type': 'application/json' },
        payload: {},
      });
    // The first is counted, then refused for not being multipart; the second is over the limit.
    expect((await upload()).statusCode).toBe(400);
    expectRateLimited(await upload());
    // Uploads do not use up the write count.
    await buildPost(server, carol, topic.id, 'still writing');
  });
});

describeEachDatabase('page-view limit', (kind) => {
  const server = useTestServer(kind, { PAGE_VIEW_RATE_LIMIT_PER_MINUTE: '2' });
  const view = (headers: Record<string, string> = {}) =>
    server.request({ method: 'POST', url: '/api/analytics/pageviews', payload: { path: '/' }, headers });

  it('counts per person with a session, and per address without one', async () => {
    const alice = await signedIn(server);
    const bob = await signedIn(server);
    expect((await view(alice.headers)).statusCode).toBe(200);
    expect((await view(alice.headers)).statusCode).toBe(200);
    expectRateLimited(await view(alice.headers));
    expect((await view(bob.headers)).statusCode).toBe(200);
    // Before sign-in: the address (inject's 127.0.0.1), with a bad token counted the same way.
    expect((await view()).statusCode).toBe(200);
    expect((await view({ authorization: 'Bearer not-a-token' })).statusCode).toBe(200);
    expectRateLimited(await view());
    expect((await view(bob.headers)).statusCode).toBe(200);
  });

  it('still names the bad field of a page view within the limit', async () => {
    const carol = await signedIn(server);
    const res = await server.request({
      method: 'POST',
      url: '/api/analytics/pageviews',
      payload: { path: 'no-slash' },
      headers: carol.headers,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details[0].field).toBe('body.path');
  });
});

/** A TCP server that accepts connections and never answers: a Redis that hangs. */
async function silentServer(answerInfo: boolean): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    if (answerInfo) {
      // Answers only the client's ready check (INFO), so the connection is "ready"; every command
      // after it waits forever.
      socket.on('data', (chunk) => {
        if (/info/i.test(chunk.toString())) {
          const info = '# Server\r\nredis_version:7.0.0\r\nloading:0\r\n';
          socket.write(`$${Buffer.byteLength(info)}\r\n${info}\r\n`);
        }
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `redis://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * Sign-in while Redis is away. Before the fix every auth call waited for Redis (30 s, then a 500):
 * each test here has a timeout far below that, and the answers must still be 200s, then the
 * limit (counted locally).
 */
describe('sign-in while Redis is unreachable', () => {
  const outages: Array<{ name: string; redisUrl: () => Promise<{ url: string; close(): Promise<void> }> }> = [
    {
      name: 'nothing listens on its port',
      redisUrl: async () => ({ url: `redis://127.0.0.1:${await freePort()}`, close: async () => {} }),
    },
    { name: 'it accepts connections and never answers', redisUrl: () => silentServer(false) },
    { name: 'it answers the ready check, then never a command', redisUrl: () => silentServer(true) },
  ];

  for (const outage of outages) {
    describe(outage.name, () => {
      const redis = { url: '', close: async () => {} };
      beforeAll(async () => {
        Object.assign(redis, await outage.redisUrl());
      });
      afterAll(() => redis.close());
      // Read when the server is built, after the beforeAll above has the address.
      const env = {
        AUTH_RATE_LIMIT_PER_MINUTE: '3',
        get REDIS_URL() {
          return redis.url;
        },
      };
      const server = useListeningTestServer('sqlite', env);

      it('answers GET /api/auth/aad at once, and still limits per address', { timeout: 8000 }, async () => {
        const statuses: number[] = [];
        for (let i = 0; i < 4; i++) statuses.push((await server.api('/api/auth/aad')).status);
        expect(statuses).toEqual([200, 200, 200, 429]);
        const limited = await server.api('/api/auth/aad');
        expect(limited.status).toBe(429);
        expect(((await limited.json()) as { code: number }).code).toBe(ErrorCode.rateLimited);
        expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      });
    });
  }
});

describe.skipIf(redisUnreachable !== null)('two instances sharing Redis', () => {
  const jwtSecret = randomBytes(32).toString('hex');
  const apps: Array<{ ctx: AppContext; request: TestServer['request']; close(): Promise<void> }> = [];
  const redis = new Redis(TEST_REDIS_URL, { lazyConnect: true });
  beforeAll(async () => {
    await redis.connect();
    for (let i = 0; i < 2; i++) {
      const testDb = await openTestDatabase('sqlite');
      const config = testConfig({
        REDIS_URL: TEST_REDIS_URL,
        JWT_SECRET: jwtSecret,
        PAGE_VIEW_RATE_LIMIT_PER_MINUTE: '3',
      });
      const ctx = createContext(config, testDb.db, serverVersion);
      const app = await buildApp(ctx, { logger: false });
      await app.ready();
      apps.push({
        ctx,
        request: (options) =>
          app.inject({ ...options, headers: { 'x-api-key': config.apiKey, ...options.headers } }),
        close: () => app.close(),
      });
    }
  });
  afterAll(async () => {
    await Promise.all(apps.map((a) => a.close()));
    redis.disconnect();
  });

  it('share one count per person', async () => {
    // A person of this run only, so the Redis key is too; both instances take the same tokens.
    const personId = newId();
    const token = await apps[0]!.ctx.tokens.sign(personId, newId());
    const view = (i: number) =>
      apps[i]!.request({
        method: 'POST',
        url: '/api/analytics/pageviews',
        payload: { path: '/' },
        headers: { authorization: `Bearer ${token}` },
      });
    const statuses = [(await view(0)).statusCode, (await view(1)).statusCode, (await view(0)).statusCode];
    expect(statuses).toEqual([200, 200, 200]);
    expectRateLimited(await view(1));
    expectRateLimited(await view(0));
    const key = `btalk-rl:pageViews:person:${personId}`;
    expect(Number(await redis.get(key))).toBe(5);
    await redis.del(key);
  });
});
