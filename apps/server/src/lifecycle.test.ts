import { once } from 'node:events';
import http from 'node:http';
import { ErrorCode } from '@btalk/contracts';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ConfigError, DEVELOPMENT_API_KEY, loadConfig } from './config/index.ts';
import { TestClient } from './realtime/testing.ts';
import { multipart } from './test/attachments.ts';
import {
  accessTokenFor,
  apiAs,
  type PreparedData,
  prepareData,
  type ServerProcess,
  startServerProcess,
} from './test/serverProcess.ts';

/*
 * The graceful stop (lifecycle.ts, main.ts) on the real server process: on SIGTERM /api/ready
 * answers 503 at once, realtime sockets close with 1001, a request in flight still completes, and
 * the process exits 0; past SHUTDOWN_TIMEOUT_SECONDS it exits 1.
 */

/** A multipart upload sent in two halves, the second only when the test says. */
interface SlowUpload {
  /** Resolves once the server has read the headers (it answered `100 Continue`) and the first half went out. */
  started: Promise<void>;
  /** Sends the rest of the body. */
  finish(): void;
  /** The answer: status, `Connection` header, body. */
  response: Promise<{ status: number; connection: string | undefined; body: string }>;
  /** Cuts the request. */
  abort(): void;
}

function slowUpload(server: ServerProcess, token: string, topicId: string): SlowUpload {
  const body = multipart([
    { name: 'notes.txt', content: Buffer.from('ครึ่งแรก / the first half; '.repeat(40)), type: 'text/plain' },
  ]);
  const half = Math.floor(body.payload.length / 2);
  const request = http.request(`${server.url}/api/topics/${topicId}/attachments`, {
    method: 'POST',
    headers: {
      ...body.headers,
      'x-api-key': DEVELOPMENT_API_KEY,
      authorization: `Bearer ${token}`,
      'content-length': String(body.payload.length),
      // The server's `100 Continue` says it has taken the request: it is in flight from then on.
      expect: '100-continue',
    },
  });
  request.on('error', () => {
    // Aborted by the test, or cut by the server: the response promise tells.
  });
  const started = once(request, 'continue').then(() => {
    request.write(body.payload.subarray(0, half));
  });
  request.flushHeaders();
  const response = new Promise<{ status: number; connection: string | undefined; body: string }>(
    (resolve, reject) => {
      request.once('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.once('end', () =>
          resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body: text }),
        );
      });
      request.once('error', reject);
    },
  );
  response.catch(() => {});
  return {
    started,
    finish: () => request.end(body.payload.subarray(half)),
    response,
    abort: () => request.destroy(),
  };
}

/** Polls /api/ready until it answers 503; fails if the server stops listening first. */
async function readyUntilNotReady(server: ServerProcess): Promise<{ status: number; body: unknown }> {
  for (let attempt = 0; attempt < 2000; attempt++) {
    let res: Response;
    try {
      res = await fetch(`${server.url}/api/ready`);
    } catch (error) {
      throw new Error(`the server stopped listening before /api/ready answered 503: ${String(error)}`);
    }
    const body = await res.json();
    if (res.status !== 200) return { status: res.status, body };
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('/api/ready kept answering 200 after SIGTERM');
}

describe('SIGTERM: a graceful stop', () => {
  let data: PreparedData | null = null;
  const servers: ServerProcess[] = [];
  const sockets: TestClient[] = [];

  afterEach(async () => {
    for (const socket of sockets.splice(0)) await socket.close().catch(() => {});
    for (const server of servers.splice(0)) await server.kill9();
  });
  afterAll(async () => {
    await data?.cleanup();
  });

  async function started(env: Record<string, string>) {
    data ??= await prepareData('sqlite');
    const server = await startServerProcess({ ...data.env, ...env });
    servers.push(server);
    const api = await apiAs(server, data);
    const created = await api('/api/topics', {
      method: 'POST',
      body: JSON.stringify({ title: 'Graceful stop', visibility: 'organisation' }),
    });
    const topic = ((await created.json()) as { data: { id: string } }).data;
    return { server, topicId: topic.id, token: await accessTokenFor(server.publicUrl, data) };
  }

  it('says not ready at once, closes sockets with 1001, finishes the request in flight, exits 0', async () => {
    // A drain long enough to see /api/ready say 503 while the instance still serves.
    const { server, topicId, token } = await started({ SHUTDOWN_DRAIN_SECONDS: '3' });
    const socket = new TestClient(server.url);
    sockets.push(socket);
    await socket.hello(token, DEVELOPMENT_API_KEY);
    const upload = slowUpload(server, token, topicId);
    await upload.started;

    const exited = server.terminate();
    const notReady = await readyUntilNotReady(server);
    expect(notReady.status).toBe(503);
    expect(notReady.body).toMatchObject({
      code: ErrorCode.unavailable,
      message: expect.stringContaining('shutting down'),
      details: [{ field: 'instance', reason: 'shutting down' }],
    });
    // Still serving meanwhile, each answer closing its connection (a proxy does not reuse it).
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(200);
    expect(health.headers.get('connection')).toBe('close');
    await health.body?.cancel();

    // After the drain: the socket is told to go elsewhere...
    expect(await socket.closed).toEqual({ code: 1001, reason: 'server is shutting down; reconnect' });
    // ...while the upload that was on its way is still taken and answered.
    upload.finish();
    const answer = await upload.response;
    expect(answer.status, answer.body).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({
      code: 0,
      data: { attachments: [{ fileName: 'notes.txt' }] },
    });
    expect(answer.connection).toBe('close');
    expect(await exited, server.output()).toBe(0);
    expect(server.output()).toContain('"msg":"stopped"');
  }, 60_000);

  it('exits 1 when a request is still unfinished at SHUTDOWN_TIMEOUT_SECONDS', async () => {
    const { server, topicId, token } = await started({ SHUTDOWN_TIMEOUT_SECONDS: '2' });
    const upload = slowUpload(server, token, topicId);
    await upload.started;
    try {
      expect(await server.terminate(), server.output()).toBe(1);
      expect(server.output()).toContain('shutdown took longer than SHUTDOWN_TIMEOUT_SECONDS');
    } finally {
      upload.abort();
    }
  }, 60_000);
});

describe('shutdown configuration', () => {
  it('takes SHUTDOWN_DRAIN_SECONDS and SHUTDOWN_TIMEOUT_SECONDS, 0 and 10 s by default', () => {
    expect(loadConfig({}).shutdown).toEqual({ drainMs: 0, timeoutMs: 10_000 });
    expect(loadConfig({ SHUTDOWN_DRAIN_SECONDS: '5', SHUTDOWN_TIMEOUT_SECONDS: '30' }).shutdown).toEqual({
      drainMs: 5000,
      timeoutMs: 30_000,
    });
  });

  it('refuses a drain that does not leave time within the timeout, and bad values, naming them', () => {
    expect(() => loadConfig({ SHUTDOWN_DRAIN_SECONDS: '10' })).toThrow(
      /SHUTDOWN_DRAIN_SECONDS, SHUTDOWN_TIMEOUT_SECONDS: the drain \(10 s\) must be shorter than the timeout \(10 s\)/,
    );
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT_SECONDS: 'soon' })).toThrow(ConfigError);
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT_SECONDS: 'soon' })).toThrow(
      /SHUTDOWN_TIMEOUT_SECONDS: must be/,
    );
    expect(() => loadConfig({ SHUTDOWN_DRAIN_SECONDS: '-1' })).toThrow(
      /SHUTDOWN_DRAIN_SECONDS: must be between 0/,
    );
  });
});
