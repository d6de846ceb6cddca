import { once } from 'node:events';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { ErrorCode, InitConfig } from '@btalk/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { createContext } from '../../context.ts';
import { migrateToLatest, openDatabase } from '../../db/index.ts';
import { S3_CHECK_TIMEOUT_MS } from '../../files/s3Storage.ts';
import { describeEachDatabase } from '../../test/db.ts';
import { freePort } from '../../test/listening.ts';
import { testConfig, useTestServer } from '../../test/server.ts';

describeEachDatabase('system routes', (kind) => {
  const server = useTestServer(kind);

  it('requires the x-api-key header on the API', async () => {
    const res = await server.request({ method: 'GET', url: '/api/topics', headers: { 'x-api-key': '' } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({
      code: ErrorCode.badApiKey,
      message: expect.stringContaining('x-api-key'),
    });
  });

  it('refuses a wrong x-api-key', async () => {
    const res = await server.request({
      method: 'GET',
      url: '/api/topics',
      headers: { 'x-api-key': 'nope-nope-nope' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe(ErrorCode.badApiKey);
  });

  it('answers health and ready without a key, as probes call them, and says nothing secret', async () => {
    for (const url of ['/api/health', '/api/ready']) {
      const res = await server.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      const data = res.json().data;
      expect(Object.keys(data).sort()).toEqual(
        url === '/api/health' ? ['status', 'uptimeSeconds', 'version'] : ['database', 'migration', 'status'],
      );
      expect(res.body).not.toMatch(/postgres:|secret|password|\/work\/|data_dir|btalk_test_/i);
    }
  });

  it('answers health in the envelope', async () => {
    const res = await server.request({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: 0, data: { status: 'ok', version: expect.any(String) } });
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('answers ready with the database and newest migration', async () => {
    const res = await server.request({ method: 'GET', url: '/api/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: 0, data: { status: 'ready', database: kind } });
  });

  it('answers an unknown API route with a 404 envelope', async () => {
    const res = await server.request({ method: 'POST', url: '/api/no/such/route' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({
      code: ErrorCode.notFound,
      message: expect.stringContaining('/api/no/such/route'),
    });
  });

  it('serves the web configuration without a key and without secrets', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/__/firebase/init.json' });
    expect(res.statusCode).toBe(200);
    const body = InitConfig.parse(res.json());
    expect(body.productName).toBe('BTalk');
    expect(body.apiBase).toMatch(/\/api$/);
    expect(JSON.stringify(body)).not.toMatch(/secret|password|DATABASE_URL/i);
  });

  it('serves an OpenAPI document of the API', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.json().paths).toHaveProperty('/api/health');
    // The probes' routes are documented as taking no key.
    expect(res.json().paths['/api/health'].get.security).toEqual([]);
    expect(res.json().paths['/api/ready'].get.security).toEqual([]);
  });
});

describe('unexpected errors', () => {
  const db = openDatabase({ dataDir: ':memory:' });
  const config = testConfig();
  afterAll(() => db.close());

  it('answer 500 in the envelope with a request id and no stack trace', async () => {
    const app = await buildApp(createContext(config, db, 'test'), { logger: false });
    app.get('/api/explode', async () => {
      throw new Error('database password is hunter2 at /srv/secret.ts:12');
    });
    const res = await app.inject({
      method: 'GET',
      url: '/api/explode',
      headers: { 'x-api-key': config.apiKey },
    });
    expect(res.statusCode).toBe(500);
    const body = res.json();
    expect(body.code).toBe(ErrorCode.internal);
    expect(body.requestId).toBe(res.headers['x-request-id']);
    expect(res.body).not.toContain('hunter2');
    expect(res.body).not.toContain('.ts:');
  });

  it('answer not ready without the database error, which may name hosts, users or paths', async () => {
    const unreachable = openDatabase({
      databaseUrl: 'postgres://btalk:hunter2@127.0.0.1:1/nowhere',
      dataDir: ':memory:',
    });
    const app = await buildApp(createContext(config, unreachable, 'test'), { logger: false });
    const res = await app.inject({ method: 'GET', url: '/api/ready' });
    expect(res.statusCode).toBe(503);
    expect(res.json().code).toBe(ErrorCode.unavailable);
    expect(res.body).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|hunter2|btalk:/);
    await app.close();
  });

  it('answers the web app with a clear page when it is not built', async () => {
    const app = await buildApp(createContext({ ...config, webDist: '/nonexistent' }, db, 'test'), {
      logger: false,
    });
    const res = await app.inject({ method: 'GET', url: '/topics/1' });
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain('npm start');
  });
});

describe('readiness and the file store', () => {
  const sockets = new Set<Socket>();
  // Takes connections and never answers: a hung store, or one behind a firewall that drops packets.
  const silent = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
  });
  beforeAll(async () => {
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    silent.close();
  });

  /** /api/ready of a server whose attachments are in an S3 store at `endpoint`. */
  async function readyWithStoreAt(endpoint: string) {
    const config = testConfig({
      S3_BUCKET: 'btalk',
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: 'btalk-app',
      S3_SECRET_ACCESS_KEY: 'hunter2hunter2',
    });
    const db = openDatabase({ dataDir: ':memory:' });
    await migrateToLatest(db);
    const app = await buildApp(createContext(config, db, 'test'), { logger: false });
    try {
      return await app.inject({ method: 'GET', url: '/api/ready' });
    } finally {
      await app.close();
    }
  }

  it('answers 503 naming the file store when its port is closed, without its address or key', async () => {
    const res = await readyWithStoreAt(`http://127.0.0.1:${await freePort()}`);
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({
      code: ErrorCode.unavailable,
      message: 'Not ready: the file store (S3) cannot be reached (ECONNREFUSED) (see the log).',
      details: [{ field: 'fileStore', reason: 'the file store (S3) cannot be reached (ECONNREFUSED)' }],
    });
    expect(res.body).not.toMatch(/127\.0\.0\.1|hunter2|btalk-app/);
  });

  it('answers 503 instead of waiting for a store that never answers', async () => {
    const address = silent.address() as AddressInfo;
    const res = await readyWithStoreAt(`http://127.0.0.1:${address.port}`);
    expect(res.statusCode).toBe(503);
    expect(res.json().message).toBe(
      `Not ready: the file store (S3) did not answer within ${S3_CHECK_TIMEOUT_MS / 1000} s (see the log).`,
    );
    expect(sockets.size).toBeGreaterThan(0);
  });
});
