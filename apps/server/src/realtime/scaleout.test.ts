import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { type AppContext, createContext } from '../context.ts';
import { migrateToLatest, openDatabase } from '../db/index.ts';
import { newId } from '../ids.ts';
import { TEST_DATABASE_URL, testDatabaseKinds } from '../test/db.ts';
import { buildUser } from '../test/factories.ts';
import { testConfig } from '../test/server.ts';
import { acceptCurrentTerms, sessionToken } from '../test/session.ts';
import { serverVersion } from '../version.ts';
import { record, settle, TestClient } from './testing.ts';

const API_KEY = 'btalk-web-development-key';
const JWT_SECRET = randomBytes(32).toString('hex');

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A private redis-server for this test (never the shared one on 6379): no persistence. */
async function startRedis(port: number): Promise<ChildProcess> {
  const redis = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    let out = '';
    redis.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Ready to accept connections')) resolve();
    });
    redis.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${out}`)));
  });
  return redis;
}

async function stopRedis(redis: ChildProcess): Promise<void> {
  if (redis.exitCode !== null || redis.signalCode !== null) return;
  const exited = new Promise((resolve) => redis.once('exit', resolve));
  redis.kill('SIGKILL');
  await exited;
}

interface Instance {
  app: FastifyInstance;
  ctx: AppContext;
  url: string;
}

/** Two server instances in this process on one PostgreSQL schema, each with its own Redis link. */
function useTwoInstances(env: () => Record<string, string>): { a: Instance; b: Instance } {
  const pair = {} as { a: Instance; b: Instance };
  const schema = `btalk_test_${randomBytes(6).toString('hex')}`;
  beforeAll(async () => {
    for (const name of ['a', 'b'] as const) {
      const db = openDatabase({
        databaseUrl: TEST_DATABASE_URL,
        dataDir: ':memory:',
        pgSchema: schema,
        poolSize: 4,
      });
      if (name === 'a') {
        const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
        await admin.connect();
        await admin.query(`create schema ${schema}`);
        await admin.end();
        await migrateToLatest(db);
      }
      const ctx = createContext(testConfig({ JWT_SECRET, ...env() }), db, serverVersion);
      const app = await buildApp(ctx, { logger: false });
      const url = await app.listen({ port: 0, host: '127.0.0.1' });
      pair[name] = { app, ctx, url };
    }
  });
  afterAll(async () => {
    await Promise.all([pair.a?.app.close(), pair.b?.app.close()]);
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
  });
  return pair;
}

const clients: TestClient[] = [];
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
});

const onPostgres = testDatabaseKinds.includes('postgres');

describe.runIf(onPostgres)('realtime across instances [postgres + redis]', () => {
  let redisPort = 0;
  let redis: ChildProcess;
  beforeAll(async () => {
    redisPort = await freePort();
    redis = await startRedis(redisPort);
  });
  afterAll(() => stopRedis(redis));

  describe('signalled through Redis', () => {
    // Polling once a minute: within this test, only Redis can wake instance B.
    const two = useTwoInstances(() => ({
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      REALTIME_POLL_MS: '60000',
    }));

    it('delivers an event committed through instance A to a client on instance B', async () => {
      const user = await acceptCurrentTerms(two.a.ctx.db.kysely, await buildUser(two.a.ctx.db.kysely));
      const onB = new TestClient(two.b.url);
      clients.push(onB);
      await onB.hello(await sessionToken(two.b, user.id), API_KEY);
      await settle(200); // B's subscription to Redis is up
      const event = await record(two.a.ctx, `user:${user.id}`, 'post.created', { text: 'จาก A' });
      const got = await onB.waitFor((m) => m.type === 'event' && m.seq === event.seq);
      expect(got).toMatchObject({ payload: { text: 'จาก A' }, room: `user:${user.id}` });
    });

    it('relays typing from a client on A to a client on B', async () => {
      const team = newId();
      const alice = await acceptCurrentTerms(
        two.a.ctx.db.kysely,
        await buildUser(two.a.ctx.db.kysely, { display_name: 'Alice' }),
      );
      const bob = await acceptCurrentTerms(two.a.ctx.db.kysely, await buildUser(two.a.ctx.db.kysely));
      for (const instance of [two.a, two.b]) {
        instance.ctx.rooms.register('team', {
          visibleIds: async () => [team],
          canSee: async (_db, _user, id) => id === team,
        });
      }
      const onA = new TestClient(two.a.url);
      const onB = new TestClient(two.b.url);
      clients.push(onA, onB);
      await onA.hello(await sessionToken(two.a, alice.id), API_KEY);
      await onB.hello(await sessionToken(two.b, bob.id), API_KEY);
      onA.send({ type: 'typing', room: `team:${team}` });
      const typing = await onB.waitFor((m) => m.type === 'volatile');
      expect(typing).toMatchObject({ kind: 'typing', userId: alice.id, displayName: 'Alice' });
    });
  });

  describe('while Redis restarts', () => {
    const two = useTwoInstances(() => ({
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      REALTIME_POLL_MS: '500',
    }));

    it('loses nothing: events committed while Redis is down arrive by polling, then by Redis again', async () => {
      const user = await acceptCurrentTerms(two.a.ctx.db.kysely, await buildUser(two.a.ctx.db.kysely));
      const room = `user:${user.id}`;
      const onB = new TestClient(two.b.url);
      clients.push(onB);
      await onB.hello(await sessionToken(two.b, user.id), API_KEY);
      const written: number[] = [];
      const write = async (n: number) => {
        for (let i = 0; i < n; i++) {
          written.push((await record(two.a.ctx, room, 'post.created', { i: written.length })).seq);
          await settle(10);
        }
      };
      await write(20);
      await stopRedis(redis);
      await write(20);
      // Redis is still down: the poll brought these.
      await onB.waitForEvents(40);
      redis = await startRedis(redisPort);
      await write(20);
      const events = await onB.waitForEvents(60);
      await settle(600);
      expect(onB.events().map((e) => e.seq)).toEqual(written);
      expect(events).toHaveLength(60);
    });
  });
});
