import { File as NodeFile } from 'node:buffer';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EVENT_SEQ_HEADER } from '@btalk/contracts/constants';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSessionStore, SESSION_STORAGE_KEY, type SessionStore } from '../stores/session.ts';
import { createTokenCipher } from '../stores/tokenCipher.ts';
import { memoryKeyStore } from '../test/memoryKeyStore.ts';
import { API_TIMEOUT_MS, createApiClient, REFRESH_LOCK } from './client.ts';
import { HttpError, isErrorEnvelope, NetworkError } from './errors.ts';

// A real HTTP server on loopback plays the BTalk API: the client's requests go over the network.
interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

const API_KEY = 'test-client-key';
let server: Server;
let base: string;
let seen: Seen[];
let validToken: string;
let refreshTokens: Map<string, { accessToken: string; aadAccessToken: string; refreshToken: string }>;
let refreshDelayMs: number;
let handler: ((req: Seen, res: ServerResponse) => boolean) | null;

function send(res: ServerResponse, status: number, body: unknown, type = 'application/json') {
  res.writeHead(status, { 'content-type': type });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

/** A handler that answers every request with `status` and `body`. */
function always(status: number, body: unknown, type?: string) {
  return (_r: Seen, res: ServerResponse) => {
    send(res, status, body, type);
    return true;
  };
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://x');
    const r: Seen = {
      method: req.method ?? '',
      path: `${url.pathname}${url.search}`,
      headers: req.headers,
      body: Buffer.concat(chunks).toString(),
    };
    seen.push(r);
    if (req.headers['x-api-key'] !== API_KEY) return send(res, 401, { code: 4011, message: 'key' });
    if (handler?.(r, res)) return;
    if (url.pathname === '/api/auth/refresh') {
      const { refreshToken } = JSON.parse(r.body) as { refreshToken: string };
      const next = refreshTokens.get(refreshToken);
      await new Promise((done) => setTimeout(done, refreshDelayMs));
      if (!next) return send(res, 401, { code: 4010, message: 'The refresh token is not valid.' });
      refreshTokens.delete(refreshToken);
      validToken = next.accessToken;
      return send(res, 200, { code: 0, data: next });
    }
    if (req.headers.authorization !== `Bearer ${validToken}`) {
      return send(res, 401, { code: 4010, message: 'Sign in again.' });
    }
    return send(res, 200, { code: 0, data: { path: r.path, method: r.method, body: r.body } });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});

afterAll(async () => {
  server.close();
  await once(server, 'close');
});

/**
 * A form with a file, made of Node's FormData and File: the fetch under test is Node's, and Vitest's
 * bridge from jsdom's FormData and Blob to it reads an internal that jsdom 31 no longer has.
 */
async function nodeForm(): Promise<FormData> {
  const empty = new Response('', { headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  const form = await empty.formData();
  form.append('file', new NodeFile(['hello'], 'hello.txt', { type: 'text/plain' }) as unknown as Blob);
  return form;
}

let session: SessionStore;
let navigations: string[];

function client(apiKey = API_KEY, store: SessionStore = session) {
  return createApiClient({
    apiBase: base,
    apiKey,
    session: store,
    redirectUri: 'http://localhost:3000/aad/callback',
    navigation: { toTerms: () => navigations.push('/terms'), toLogin: () => navigations.push('/login') },
  });
}

beforeEach(() => {
  seen = [];
  navigations = [];
  validToken = 'access-1';
  refreshTokens = new Map([
    ['refresh-1', { accessToken: 'access-2', aadAccessToken: 'graph-2', refreshToken: 'refresh-2' }],
  ]);
  refreshDelayMs = 0;
  handler = null;
  session = createSessionStore(localStorage, createTokenCipher(memoryKeyStore()));
});

afterEach(() => {
  localStorage.clear();
});

describe('the API client', () => {
  it('sends JSON with the client key, and no bearer without a session', async () => {
    handler = always(200, { code: 0, data: { ok: true } });
    await expect(client().get('/things', { page: 2, q: 'fire drill', cursor: undefined })).resolves.toEqual({
      ok: true,
    });
    expect(seen[0]).toMatchObject({ method: 'GET', path: '/api/things?page=2&q=fire+drill' });
    expect(seen[0]?.headers['x-api-key']).toBe(API_KEY);
    expect(seen[0]?.headers.authorization).toBeUndefined();
    // A GET has no body, so no content type either.
    expect(seen[0]?.headers['content-type']).toBeUndefined();
    expect(API_TIMEOUT_MS).toBe(120_000);
  });

  it('unseals the stored access token and sends it as the bearer', async () => {
    await session.setTokens({ accessToken: 'access-1', refreshToken: 'refresh-1', aadToken: 'graph-1' });
    const stored = localStorage.getItem(SESSION_STORAGE_KEY) ?? '';
    expect(stored).not.toContain('access-1');
    expect(stored).not.toContain('refresh-1');
    expect(JSON.parse(stored)).toMatchObject({ aad_token: 'graph-1', last_page: '/' });

    const data = await client().post<{ body: string }>('/things', { title: 'Fire drill' });
    expect(JSON.parse(data.body)).toEqual({ title: 'Fire drill' });
    expect(seen[0]?.headers.authorization).toBe('Bearer access-1');
    expect(seen[0]?.headers['content-type']).toContain('application/json');
  });

  it('sends patch, delete with params and body, a generic request and a multipart form', async () => {
    await session.setTokens({ accessToken: 'access-1' });
    const api = client();
    await api.patch('/things/1', { title: 'b' });
    await api.delete('/things/1', { hard: true }, { reason: 'spam' });
    await api.request('put', '/things/1', { params: { v: 2 }, body: { x: 1 } });
    await api.postForm('/files', await nodeForm());
    expect(seen.map((r) => `${r.method} ${r.path}`)).toEqual([
      'PATCH /api/things/1',
      'DELETE /api/things/1?hard=true',
      'PUT /api/things/1?v=2',
      'POST /api/files',
    ]);
    expect(seen[1]?.body).toBe('{"reason":"spam"}');
    expect(seen[3]?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(seen[3]?.body).toContain('filename="hello.txt"');
    expect(seen[3]?.body).toContain('hello');
  });

  it("keeps the stream position each answer names for that answer's data, and none for others", async () => {
    await session.setTokens({ accessToken: 'access-1' });
    let seq = 41;
    handler = (_r, res) => {
      res.writeHead(200, { 'content-type': 'application/json', [EVENT_SEQ_HEADER]: String(seq++) });
      res.end(JSON.stringify({ code: 0, data: { n: seq } }));
      return true;
    };
    const api = client();
    const first = await api.get('/topics');
    const second = await api.get('/topics');
    expect([api.answerSeq(first), api.answerSeq(second)]).toEqual([41, 42]);
    // A copy of the data, and an answer without the header, are not known to reflect anything.
    expect(api.answerSeq({ ...(first as object) })).toBeUndefined();
    handler = always(200, { code: 0, data: { n: 0 } });
    expect(api.answerSeq(await api.get('/topics'))).toBeUndefined();
    expect(api.answerSeq(null)).toBeUndefined();
  });

  it('rejects with the whole envelope for a code other than 0', async () => {
    const envelope = {
      code: 4000,
      message: 'body.title: required',
      details: [{ field: 'body.title', reason: 'required' }],
    };
    handler = always(400, envelope);
    const failure = await client()
      .get('/things')
      .catch((e: unknown) => e);
    expect(failure).toEqual(envelope);
    expect(isErrorEnvelope(failure)).toBe(true);
    expect(navigations).toEqual([]);
  });

  it('replaces the location with /terms on code 4404', async () => {
    handler = always(403, { code: 4404, message: 'Accept the terms of use.' });
    await expect(client().get('/things')).rejects.toMatchObject({ code: 4404 });
    expect(navigations).toEqual(['/terms']);
  });

  it('passes other HTTP errors to the caller', async () => {
    handler = always(502, '<html>Bad gateway</html>', 'text/html');
    const failure = await client()
      .get('/things')
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(HttpError);
    expect(failure).toMatchObject({ status: 502, message: '502' });
  });

  it('downloads a file as a Blob, with the same headers', async () => {
    await session.setTokens({ accessToken: 'access-1' });
    handler = (r, res) => {
      if (r.path !== '/api/attachments/1/content' || r.headers.authorization !== 'Bearer access-1')
        return false;
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
      return true;
    };
    const file = await client().blob('/attachments/1/content');
    expect(file.type).toBe('image/png');
    expect([...new Uint8Array(await file.arrayBuffer())]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    expect(seen[0]?.headers['x-api-key']).toBe(API_KEY);
  });

  it('rejects a failed download with the envelope it answered, and follows 4404', async () => {
    handler = always(404, { code: 4040, message: 'The attachment does not exist.' });
    await expect(client().blob('/attachments/9/content')).rejects.toEqual({
      code: 4040,
      message: 'The attachment does not exist.',
    });
    handler = always(403, { code: 4404, message: 'Accept the terms of use.' });
    await expect(client().blob('/attachments/9/content')).rejects.toMatchObject({ code: 4404 });
    expect(navigations).toEqual(['/terms']);
  });

  it('rejects with a NetworkError when no answer comes back', async () => {
    await session.setTokens({ accessToken: 'expired', refreshToken: 'refresh-1' });
    handler = (_r, res) => {
      res.socket?.destroy();
      return true;
    };
    const failure = await client()
      .post('/things', { title: 'Fire drill' })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(NetworkError);
    expect(failure).toMatchObject({ message: 'Network Error', timedOut: false });
    expect(isErrorEnvelope(failure)).toBe(false);
    // No answer is no 401: nothing was refreshed, nobody was sent to /login.
    expect(seen.map((r) => r.path)).toEqual(['/api/things']);
    expect(navigations).toEqual([]);
  });

  it('gives up after 120 s without an answer, with a timed-out NetworkError', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const held: ServerResponse[] = [];
      handler = (_r, res) => {
        held.push(res);
        return true;
      };
      const call = client()
        .get('/slow')
        .catch((e: unknown) => e);
      await vi.waitFor(() => expect(held).toHaveLength(1), { interval: 5 });
      vi.advanceTimersByTime(API_TIMEOUT_MS - 1);
      const early = await Promise.race([call, Promise.resolve('still waiting')]);
      expect(early).toBe('still waiting');
      vi.advanceTimersByTime(1);
      const failure = await call;
      expect(failure).toBeInstanceOf(NetworkError);
      expect(failure).toMatchObject({ message: 'timeout of 120000ms exceeded', timedOut: true });
      for (const res of held) res.destroy();
    } finally {
      vi.useRealTimers();
    }
  });

  it('on a 401 refreshes once, stores the new tokens sealed and repeats the request', async () => {
    await session.setTokens({ accessToken: 'expired', refreshToken: 'refresh-1', aadToken: 'graph-1' });
    await expect(client().get('/things')).resolves.toMatchObject({ path: '/api/things' });
    expect(seen.map((r) => `${r.method} ${r.path} ${r.headers.authorization ?? ''}`)).toEqual([
      'GET /api/things Bearer expired',
      'POST /api/auth/refresh Bearer expired',
      'GET /api/things Bearer access-2',
    ]);
    expect(JSON.parse(seen[1]?.body ?? '')).toEqual({
      refreshToken: 'refresh-1',
      redirectUri: 'http://localhost:3000/aad/callback',
    });
    expect(await session.accessToken()).toBe('access-2');
    expect(await session.refreshToken()).toBe('refresh-2');
    expect(session.getState().aad_token).toBe('graph-2');
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).not.toContain('access-2');
    expect(navigations).toEqual([]);
  });

  it('shares one refresh between concurrent 401s', async () => {
    await session.setTokens({ accessToken: 'expired', refreshToken: 'refresh-1' });
    refreshDelayMs = 100;
    const api = client();
    const answers = await Promise.all([api.get('/a'), api.get('/b'), api.get('/c')]);
    expect(answers).toHaveLength(3);
    expect(seen.filter((r) => r.path === '/api/auth/refresh')).toHaveLength(1);
    expect(seen.filter((r) => r.headers.authorization === 'Bearer access-2')).toHaveLength(3);
  });

  it('goes to /login when the refresh fails, and never refreshes a refresh', async () => {
    await session.setTokens({ accessToken: 'expired', refreshToken: 'stolen' });
    await expect(client().get('/things')).rejects.toMatchObject({ code: 4010 });
    expect(seen.map((r) => r.path)).toEqual(['/api/things', '/api/auth/refresh']);
    expect(navigations).toEqual(['/login']);
  });

  it('goes to /login on a 401 without a refresh token, without calling refresh', async () => {
    await expect(client().get('/things')).rejects.toMatchObject({ code: 4010 });
    expect(seen.map((r) => r.path)).toEqual(['/api/things']);
    expect(navigations).toEqual(['/login']);
  });

  it('repeats a request only once', async () => {
    await session.setTokens({ accessToken: 'expired', refreshToken: 'refresh-1' });
    const refuse = always(401, { code: 4010, message: 'no' });
    handler = (r, res) => r.path === '/api/things' && refuse(r, res);
    await expect(client().get('/things')).rejects.toMatchObject({ code: 4010 });
    expect(seen.map((r) => r.path)).toEqual(['/api/things', '/api/auth/refresh', '/api/things']);
    expect(navigations).toEqual([]);
  });

  describe('two tabs', () => {
    // jsdom has no Web Locks: this stand-in grants each named lock to one holder at a time, in order.
    const held = new Map<string, Promise<unknown>>();
    const requested: string[] = [];
    const locks = {
      request<T>(name: string, callback: () => Promise<T>): Promise<T> {
        requested.push(name);
        const previous = held.get(name) ?? Promise.resolve();
        const run = previous.then(callback, callback);
        held.set(
          name,
          run.catch(() => undefined),
        );
        return run;
      },
    };

    afterEach(() => {
      Reflect.deleteProperty(navigator, 'locks');
      held.clear();
      requested.length = 0;
    });

    async function twoTabs() {
      const keys = memoryKeyStore();
      const first = createSessionStore(localStorage, createTokenCipher(keys));
      await first.setTokens({ accessToken: 'expired', refreshToken: 'refresh-1' });
      // The second tab read the same stored session when it started.
      const second = createSessionStore(localStorage, createTokenCipher(keys));
      return [client(API_KEY, first), client(API_KEY, second), second] as const;
    }

    it('a tab that waited finds the tokens the other tab refreshed, without spending the refresh token', async () => {
      const [tabA, tabB, storeB] = await twoTabs();
      await tabA.get('/a');
      await expect(tabB.get('/b')).resolves.toMatchObject({ path: '/api/b' });
      expect(seen.filter((r) => r.path === '/api/auth/refresh')).toHaveLength(1);
      expect(seen.at(-1)?.headers.authorization).toBe('Bearer access-2');
      expect(await storeB.refreshToken()).toBe('refresh-2');
      expect(navigations).toEqual([]);
    });

    it('serialises refreshes across tabs with a Web Lock', async () => {
      Object.defineProperty(navigator, 'locks', { value: locks, configurable: true });
      const [tabA, tabB] = await twoTabs();
      refreshDelayMs = 100;
      await Promise.all([tabA.get('/a'), tabB.get('/b')]);
      expect(requested).toEqual([REFRESH_LOCK, REFRESH_LOCK]);
      expect(seen.filter((r) => r.path === '/api/auth/refresh')).toHaveLength(1);
      expect(navigations).toEqual([]);
    });

    it('without the lock, both tabs would spend the same refresh token', async () => {
      const [tabA, tabB] = await twoTabs();
      refreshDelayMs = 100;
      await Promise.allSettled([tabA.get('/a'), tabB.get('/b')]);
      // The second refresh presents a token the first one already rotated: this is what the lock prevents.
      expect(seen.filter((r) => r.path === '/api/auth/refresh')).toHaveLength(2);
    });
  });
});
