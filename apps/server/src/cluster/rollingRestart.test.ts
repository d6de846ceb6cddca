import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Post, PostPage, ServerMessage } from '@btalk/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DEVELOPMENT_API_KEY } from '../config/index.ts';
import { multipart } from '../test/attachments.ts';
import { testDatabaseKinds } from '../test/db.ts';
import { freePort } from '../test/listening.ts';
import {
  type Nginx,
  nginxAvailable,
  SITE_CONFIG,
  siteConfigFor,
  startNginx,
  TLS_SITE_CONFIG,
  testSiteConfig,
} from '../test/nginx.ts';
import { redisFor, TEST_REDIS_URL } from '../test/redis.ts';
import { type LocalS3, startLocalS3 } from '../test/s3.ts';
import {
  type Api,
  accessTokenFor,
  apiAs,
  type PreparedData,
  prepareData,
  type ServerProcess,
  startServerProcess,
} from '../test/serverProcess.ts';

/*
 * Issue 16: several instances behind a real load balancer, restarted one after the other under
 * load, lose nothing. nginx (Debian's) runs the site configuration shipped in deploy/nginx/ in front
 * of two instances on PostgreSQL, Redis and an S3 store. Writers post through nginx with client-made
 * ids and retry what fails; readers hold WebSockets through nginx and resume after each close. Then
 * instance A gets SIGTERM (exit 0), starts again on its port, then B does the same. Every
 * acknowledged post is stored once, every reader gets every post once and in order, every failed
 * request was retried until it succeeded, and both instances served before and after.
 */

const WRITERS = 20;
const READERS = 200;
/** A writer waits this long between its posts: a steady load the test machine (2 cores) keeps up with. */
const WRITER_PAUSE_MS = 1000;
/** A writer gives a post up after this many failed attempts, some 20 s (the test then fails). */
const MAX_ATTEMPTS = 100;
/** What a writer retries, with the same clientId: nginx found no instance, or one was stopping. */
const RETRYABLE_STATUS = new Set([502, 503, 504]);
/** What every reader's socket must be closed with: the stopping instance's "going away". */
const GOING_AWAY = '1001 server is shutting down; reconnect';

const noRedis = await redisFor('the rolling-restart test');
const onPostgres = testDatabaseKinds.includes('postgres');
if (!onPostgres)
  console.warn('SKIPPED the rolling-restart test: it runs on PostgreSQL, which is not reachable.');
const withNginx = nginxAvailable('the load-balancer tests');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits for a condition (polling), failing with `what` and `detail()` after `timeoutMs`. */
async function waitUntil(
  check: () => boolean,
  what: string,
  timeoutMs: number,
  detail = () => '',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}\n${detail()}`);
    await sleep(50);
  }
}

/** Counts of things by kind, printed at the end. */
class Tally {
  readonly counts = new Map<string, number>();
  add(kind: string): void {
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1);
  }
  total(): number {
    return [...this.counts.values()].reduce((a, b) => a + b, 0);
  }
  toString(): string {
    return this.counts.size === 0 ? 'none' : [...this.counts].map(([kind, n]) => `${kind}: ${n}`).join(', ');
  }
}

/** A post a writer sent, and the record the server acknowledged. */
interface Acknowledged {
  clientId: string;
  body: string;
  id: string;
  number: number;
}

/**
 * The writers: each posts, waits, posts again, until stopped. A post that fails (network error,
 * 502, 503, 504, no answer in 30 s) is sent again with the same clientId, as the web client does;
 * anything else ends the writer as a failure.
 */
class Writers {
  readonly acknowledged: Acknowledged[] = [];
  readonly retried = new Tally();
  /** Posts that needed more than one attempt. */
  retriedPosts = 0;
  readonly failures: string[] = [];
  #running = true;
  #done: Promise<void>;

  constructor(api: Api, topicId: string) {
    this.#done = Promise.all(
      Array.from({ length: WRITERS }, (_, w) =>
        this.#writer(api, topicId, w).catch((error: unknown) => {
          this.failures.push(`writer ${w}: ${error instanceof Error ? error.message : String(error)}`);
        }),
      ),
    ).then(() => {});
  }

  async #writer(api: Api, topicId: string, w: number): Promise<void> {
    for (let n = 1; this.#running; n++) {
      const sent = {
        clientId: `roll-${w}-${n}-${randomBytes(4).toString('hex')}`,
        body: `Post ${n} of writer ${w}`,
      };
      const post = await this.#post(api, topicId, sent);
      this.acknowledged.push({ ...sent, id: post.id, number: post.number });
      await sleep(WRITER_PAUSE_MS * (0.75 + Math.random() / 2));
    }
  }

  async #post(api: Api, topicId: string, sent: { clientId: string; body: string }): Promise<Post> {
    for (let attempt = 1; ; attempt++) {
      let failure: string;
      try {
        const res = await api(`/api/topics/${topicId}/posts`, {
          method: 'POST',
          body: JSON.stringify(sent),
          signal: AbortSignal.timeout(30_000),
        });
        const text = await res.text();
        if (res.status === 200) {
          const answer = JSON.parse(text) as { code: number; data: Post };
          if (answer.code !== 0) throw new Error(`answered 200 with ${text.slice(0, 300)}`);
          if (attempt > 1) this.retriedPosts += 1;
          return answer.data;
        }
        if (!RETRYABLE_STATUS.has(res.status))
          throw new Error(`answered ${res.status}: ${text.slice(0, 300)}`);
        failure = `HTTP ${res.status}`;
      } catch (error) {
        // Only what never got an answer is retried here; a refused answer ends the writer.
        if (!(error instanceof TypeError) && !(error instanceof DOMException)) throw error;
        const cause = (error as { cause?: { code?: string } }).cause;
        failure = `no answer (${cause?.code ?? error.name})`;
      }
      this.retried.add(failure);
      if (attempt >= MAX_ATTEMPTS)
        throw new Error(`post ${sent.clientId} failed ${attempt} times, last: ${failure}`);
      await sleep(100 + Math.random() * 200);
    }
  }

  /** Stops starting posts and waits until every writer's last post is acknowledged. */
  async stop(): Promise<void> {
    this.#running = false;
    await this.#done;
  }
}

/**
 * A realtime reader through the load balancer, as the web client behaves: hello with the last seq
 * it saw, and after any close a reconnect (a short random wait) that resumes from there. It keeps
 * everything, and notes whatever breaks "once and in order".
 */
class Reader {
  readonly postNumbers: number[] = [];
  readonly closes = new Tally();
  readonly refused = new Tally();
  readonly problems: string[] = [];
  lastSeq: number | null = null;
  ready = false;
  #running = true;
  #socket: WebSocket | null = null;
  readonly #url: string;
  readonly #token: string;
  readonly #room: string;

  constructor(url: string, token: string, topicId: string) {
    this.#url = `${url.replace(/^http/, 'ws')}/api/realtime`;
    this.#token = token;
    this.#room = `topic:${topicId}`;
    this.#connect();
  }

  #connect(): void {
    const socket = new WebSocket(this.#url);
    this.#socket = socket;
    let opened = false;
    let refusal = false;
    socket.on('open', () => {
      opened = true;
      socket.send(
        JSON.stringify({
          type: 'hello',
          token: this.#token,
          apiKey: DEVELOPMENT_API_KEY,
          lastSeq: this.lastSeq,
        }),
      );
    });
    socket.on('unexpected-response', (request, response) => {
      refusal = true;
      this.refused.add(`HTTP ${response.statusCode}`);
      request.destroy();
      socket.terminate();
    });
    socket.on('error', (error: Error & { code?: string }) => {
      if (!opened && !refusal) this.refused.add(error.code ?? error.message);
    });
    socket.on('message', (data) => this.#handle(JSON.parse(data.toString()) as ServerMessage));
    socket.on('close', (code, reason) => {
      this.ready = false;
      if (opened) this.closes.add(`${code} ${reason.toString()}`);
      if (this.#running) setTimeout(() => this.#connect(), Math.random() * 500);
    });
  }

  #handle(message: ServerMessage): void {
    if (message.type === 'ready') {
      this.lastSeq = Math.max(this.lastSeq ?? 0, message.seq);
      this.ready = true;
    } else if (message.type === 'resync') {
      this.problems.push(`resync (${message.reason}) at ${message.seq}`);
      this.lastSeq = message.seq;
    } else if (message.type === 'event') {
      // Strictly growing across reconnects: nothing twice, nothing out of order (no client-side filter).
      if (this.lastSeq !== null && message.seq <= this.lastSeq) {
        this.problems.push(`event ${message.seq} after ${this.lastSeq}`);
      }
      this.lastSeq = Math.max(this.lastSeq ?? 0, message.seq);
      if (message.name === 'post.created' && message.room === this.#room) {
        const { number } = (message.payload as { post: Post }).post;
        const previous = this.postNumbers.at(-1);
        if (previous !== undefined && number <= previous)
          this.problems.push(`post ${number} after post ${previous}`);
        this.postNumbers.push(number);
      }
    }
  }

  stop(): void {
    this.#running = false;
    this.#socket?.terminate();
  }
}

/** Every post of the topic, oldest first, through `api` (newest-first pages, by cursor). */
async function listAllPosts(api: Api, topicId: string): Promise<Post[]> {
  const posts: Post[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const res = await api(`/api/topics/${topicId}/posts?limit=100${query}`);
    const answer = (await res.json()) as { code: number; data: PostPage };
    if (answer.code !== 0)
      throw new Error(`listing the posts answered ${res.status} ${JSON.stringify(answer)}`);
    posts.push(...answer.data.items);
    cursor = answer.data.nextCursor;
  } while (cursor);
  return posts.sort((a, b) => a.number - b.number);
}

/** The values that occur more than once. */
function duplicates<T>(values: T[]): T[] {
  const seen = new Set<T>();
  return values.filter((v) => {
    if (seen.has(v)) return true;
    seen.add(v);
    return false;
  });
}

describe.runIf(onPostgres && !noRedis && withNginx)(
  'rolling restart behind nginx [postgres + redis + s3]',
  () => {
    let data: PreparedData | null = null;
    let nginx: Nginx | null = null;
    let s3: LocalS3 | null = null;
    const servers: ServerProcess[] = [];
    const readers: Reader[] = [];
    let writers: Writers | null = null;

    beforeAll(async () => {
      data = await prepareData('postgres');
      s3 = await startLocalS3();
    }, 60_000);

    afterAll(async () => {
      for (const reader of readers) reader.stop();
      await writers?.stop().catch(() => {});
      await nginx?.stop();
      for (const server of servers) await server.kill9();
      await s3?.stop();
      await data?.cleanup();
    }, 60_000);

    it('loses nothing while A and then B get SIGTERM and start again', async () => {
      if (!data || !s3) throw new Error('not prepared');
      // When each step was reached, printed at the end (for whoever tunes the test; nothing asserts on it).
      const began = Date.now();
      const timeline: string[] = [];
      const mark = (step: string) => timeline.push(`${step} ${((Date.now() - began) / 1000).toFixed(1)} s`);
      const [nginxPort, portA, portB] = [await freePort(), await freePort(), await freePort()];
      const publicUrl = `http://127.0.0.1:${nginxPort}`;
      const env = {
        ...data.env,
        ...s3.env,
        PUBLIC_URL: publicUrl,
        REDIS_URL: TEST_REDIS_URL,
        // nginx is on loopback: its X-Forwarded-For names the client.
        TRUST_PROXY: 'loopback',
        // The readers are one person with 200 tabs.
        REALTIME_MAX_SOCKETS_PER_PERSON: '1000',
        SHUTDOWN_DRAIN_SECONDS: '1',
        SHUTDOWN_TIMEOUT_SECONDS: '20',
        LOG_LEVEL: 'warn',
      };
      const start = async (port: number) => {
        const server = await startServerProcess(env, { port });
        servers.push(server);
        return server;
      };
      let [a, b] = await Promise.all([start(portA), start(portB)]);
      mark('A and B ready');
      const addressA = `127.0.0.1:${portA}`;
      const addressB = `127.0.0.1:${portB}`;
      nginx = await startNginx({ port: nginxPort, instances: [addressA, addressB] });
      mark('nginx listening');
      const lb = nginx;
      const diagnostics = () =>
        `nginx:\n${lb.errorLog()}\nA:\n${a.output().slice(-2000)}\nB:\n${b.output().slice(-2000)}`;

      // The S3 store is shared: a file uploaded through A downloads through B.
      const onA = await apiAs(a, data);
      const onB = await apiAs(b, data);
      const api = await apiAs(a, data, { base: publicUrl });
      const created = await api('/api/topics', {
        method: 'POST',
        body: JSON.stringify({ title: 'Rolling restart', visibility: 'organisation' }),
      });
      const topicAnswer = (await created.json()) as { code: number; data: { id: string } };
      expect(topicAnswer.code, JSON.stringify(topicAnswer)).toBe(0);
      const topicId = topicAnswer.data.id;
      const file = multipart([
        { name: 'รายงาน.txt', content: Buffer.from('shared between instances ✓'), type: 'text/plain' },
      ]);
      const uploaded = await onA(`/api/topics/${topicId}/attachments`, {
        method: 'POST',
        body: file.payload,
        headers: file.headers,
      });
      const upload = (await uploaded.json()) as {
        code: number;
        data: { attachments: Array<{ url: string }> };
      };
      expect(upload.code, JSON.stringify(upload)).toBe(0);
      expect(await s3.keys()).toHaveLength(1);
      const download = await onB(upload.data.attachments[0]!.url);
      expect(download.status).toBe(200);
      expect(await download.text()).toBe('shared between instances ✓');

      // 200 readers through nginx, then the writers.
      const token = await accessTokenFor(publicUrl, data);
      for (let r = 0; r < READERS; r++) readers.push(new Reader(publicUrl, token, topicId));
      const allReady = () => readers.every((reader) => reader.ready);
      const readyCount = () =>
        `${readers.filter((reader) => reader.ready).length} of ${READERS} readers ready`;
      await waitUntil(allReady, 'every reader is ready', 60_000, readyCount);
      mark('readers ready');
      const w = new Writers(api, topicId);
      writers = w;
      const acked = () => w.acknowledged.length;
      const served = (address: string, from: number) =>
        lb
          .accessLog()
          .slice(from)
          .some((e) => e.method === 'POST' && e.status === 200 && e.upstreams.at(-1) === address);
      const steady = async (atLeast: number, what: string) => {
        const from = acked();
        await waitUntil(() => acked() >= from + atLeast || w.failures.length > 0, what, 60_000, diagnostics);
        expect(w.failures).toEqual([]);
      };

      await steady(40, 'the first posts are acknowledged');
      mark('first posts');
      await waitUntil(
        () => served(addressA, 0) && served(addressB, 0),
        'both instances served posts',
        30_000,
        diagnostics,
      );
      const beforeA = lb.accessLog().length;

      // A: SIGTERM under load, then again on its port.
      expect(await a.terminate(), a.output()).toBe(0);
      mark('A stopped');
      const restartedA = lb.accessLog().length;
      a = await start(portA);
      mark('A ready again');
      await waitUntil(
        () => served(addressA, restartedA),
        'nginx sends posts to A again',
        60_000,
        diagnostics,
      );
      await steady(20, 'posts go on after A restarted');
      mark('nginx sends A posts, 20 more posts');
      await waitUntil(allReady, 'every reader is back', 60_000, readyCount);
      mark('readers back');

      // B: the same.
      expect(await b.terminate(), b.output()).toBe(0);
      mark('B stopped');
      const restartedB = lb.accessLog().length;
      b = await start(portB);
      mark('B ready again');
      await waitUntil(
        () => served(addressB, restartedB),
        'nginx sends posts to B again',
        60_000,
        diagnostics,
      );
      await steady(40, 'posts go on after B restarted');
      mark('nginx sends B posts, 40 more posts');
      await waitUntil(allReady, 'every reader is back', 60_000, readyCount);
      mark('readers back');

      await w.stop();
      expect(w.failures).toEqual([]);

      // Stored: every acknowledged post once, exactly as acknowledged, and nothing else.
      const stored = await listAllPosts(api, topicId);
      expect(duplicates(stored.map((p) => p.clientId))).toEqual([]);
      expect(duplicates(stored.map((p) => p.number))).toEqual([]);
      const byClientId = new Map(stored.map((p) => [p.clientId, p]));
      const lost = w.acknowledged.filter((s) => {
        const post = byClientId.get(s.clientId);
        return !post || post.id !== s.id || post.number !== s.number || post.body !== s.body;
      });
      expect(lost, `${lost.length} acknowledged post(s) missing or changed`).toEqual([]);
      expect(stored).toHaveLength(w.acknowledged.length);

      // Every reader: every post, once, in order, across its reconnects.
      const numbers = stored.map((p) => p.number);
      const complete = () => readers.every((reader) => reader.postNumbers.length >= numbers.length);
      await waitUntil(complete, 'every reader has every post', 60_000, () => {
        const behind = readers.filter((r) => r.postNumbers.length < numbers.length);
        const first = behind[0];
        return (
          `${READERS - behind.length} of ${READERS} readers complete; ${numbers.length} posts stored` +
          (first
            ? `; a reader behind has ${first.postNumbers.length} (missing ${numbers
                .filter((n) => !first.postNumbers.includes(n))
                .slice(0, 20)
                .join(', ')}), ` +
              `problems ${first.problems.slice(0, 5).join('; ') || 'none'}, closes ${first.closes}, refused ${first.refused}, lastSeq ${first.lastSeq}`
            : '')
        );
      });
      mark('readers have every post');
      for (const [i, reader] of readers.entries()) {
        expect(reader.problems, `reader ${i}`).toEqual([]);
        expect(reader.postNumbers, `reader ${i}`).toEqual(numbers);
        // Every reader was moved at least once (all were on B when it stopped), always told to reconnect.
        expect([...reader.closes.counts.keys()], `reader ${i}'s closes`).toEqual([GOING_AWAY]);
      }

      // Both instances served before the restarts and after them.
      const log = lb.accessLog();
      const servedIn = (entries: typeof log, address: string) =>
        entries.some((e) => e.status === 200 && e.upstreams.at(-1) === address);
      expect(servedIn(log.slice(0, beforeA), addressA)).toBe(true);
      expect(servedIn(log.slice(0, beforeA), addressB)).toBe(true);
      expect(servedIn(log.slice(restartedB), addressA)).toBe(true);
      expect(servedIn(log.slice(restartedB), addressB)).toBe(true);
      // Every request nginx answered with an error was a writer's, and the writer retried it.
      const errors = log.filter((e) => e.status >= 500 && e.uri !== '/api/realtime');
      expect(errors.every((e) => e.method === 'POST' && e.uri.endsWith('/posts'))).toBe(true);
      expect(errors.length).toBeLessThanOrEqual(w.retried.total());

      const readerRefusals = new Tally();
      const readerCloses = new Tally();
      for (const reader of readers) {
        for (const [kind, n] of reader.refused.counts) for (let k = 0; k < n; k++) readerRefusals.add(kind);
        for (const [kind, n] of reader.closes.counts) for (let k = 0; k < n; k++) readerCloses.add(kind);
      }
      const passedOn = log.filter((e) => e.upstreams.length > 1).length;
      console.log(
        [
          `rolling restart: ${stored.length} posts acknowledged and stored once; ${READERS} readers got each once, in order`,
          `  writers' failed attempts, each retried until acknowledged: ${w.retried} (${w.retriedPosts} posts needed a retry)`,
          `  readers' closes: ${readerCloses}; failed reconnects, retried: ${readerRefusals}`,
          `  nginx passed ${passedOn} request(s) on to the other instance; answered ${errors.length} with 5xx`,
          `  steps: ${timeline.join(', ')}`,
        ].join('\n'),
      );
    }, 240_000);
  },
);

describe.runIf(withNginx)('the shipped nginx sites', () => {
  it('the TLS example proxies as the plain site does, and nginx accepts both', () => {
    const plain = readFileSync(SITE_CONFIG, 'utf8');
    const tls = readFileSync(TLS_SITE_CONFIG, 'utf8');
    // The same map and upstream, and the same proxying from the body limit to the end.
    const between = (text: string, from: string, to: string) =>
      text.slice(text.indexOf(from), text.indexOf(to));
    const upstream = (text: string) => between(text, 'map $http_upgrade', 'keepalive_timeout 60s;');
    expect(upstream(tls)).toBe(upstream(plain));
    const proxying = (text: string) => text.slice(text.lastIndexOf('    client_max_body_size 2m;'));
    expect(proxying(tls)).toBe(proxying(plain));
    // nginx -t, with a certificate of the test's own in place of the marked paths.
    const dir = mkdtempSync(path.join(tmpdir(), 'btalk-tls-'));
    try {
      const cert = path.join(dir, 'cert.pem');
      const key = path.join(dir, 'key.pem');
      const made = spawnSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-days',
          '1',
          '-subj',
          '/CN=btalk.example.org',
        ].concat(['-keyout', key, '-out', cert]),
        { encoding: 'utf8' },
      );
      expect(made.status, `openssl: ${made.error?.message ?? made.stderr}`).toBe(0);
      const site = tls
        .replace(/ssl_certificate \S+;/, `ssl_certificate ${cert};`)
        .replace(/ssl_certificate_key \S+;/, `ssl_certificate_key ${key};`);
      expect(testSiteConfig(site)).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // The plain site, as the rolling restart runs it.
    expect(testSiteConfig(siteConfigFor(plain, ['127.0.0.1:1', '127.0.0.1:2'], '127.0.0.1:3'))).toBeNull();
  });

  it('refuses a site without the marks the test relies on, naming the mark', () => {
    const plain = readFileSync(SITE_CONFIG, 'utf8');
    expect(() =>
      siteConfigFor(plain.replaceAll('# EDIT: instance', ''), ['127.0.0.1:1'], '127.0.0.1:2'),
    ).toThrow(/no "# EDIT: instance" line/);
    const site = siteConfigFor(plain, ['127.0.0.1:1', '127.0.0.1:2', '127.0.0.1:3'], '127.0.0.1:9');
    expect(site.match(/^\s*server 127\.0\.0\.1:\d max_fails=1 fail_timeout=5s;/gm)).toHaveLength(3);
    expect(site).toContain('listen 127.0.0.1:9;');
  });
});
