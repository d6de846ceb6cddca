import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Post, PostPage } from '@btalk/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AccessTokens } from './auth/accessTokens.ts';
import { DEVELOPMENT_API_KEY } from './config/index.ts';
import { type DatabaseKind, migrateToLatest, openDatabase } from './db/index.ts';
import { newId } from './ids.ts';
import { describeEachDatabase, openTestDatabase, TEST_DATABASE_URL } from './test/db.ts';
import { buildUser } from './test/factories.ts';
import { freePort } from './test/listening.ts';
import { acceptCurrentTerms, openSession } from './test/session.ts';

/*
 * DESIGN.md section 9: "No acknowledged write is ever lost: kill -9 of the server during load loses
 * nothing that a client was told was saved." The real server runs as a child process; writers post
 * concurrently, the server gets SIGKILL with requests in flight, and after a restart on the same
 * data every post that was answered `code: 0` must be there, once, with its exact text.
 */

const main = fileURLToPath(new URL('./main.ts', import.meta.url));

/** Concurrent writers while the server is up. */
const WRITERS = 8;
/** The server is killed as soon as this many posts have been acknowledged. */
const KILL_AFTER_ACKNOWLEDGED = 50;
/** No writer starts a post after this many in all (the kill normally comes long before). */
const MAX_POSTS = 300;
/** Signs the test's access tokens; the server is given the same secret. */
const JWT_SECRET = randomBytes(36).toString('base64url');

/** The real server, running as a child process. */
interface ServerProcess {
  /** Its address, e.g. `http://127.0.0.1:43123`; also its PUBLIC_URL and so its tokens' issuer. */
  url: string;
  /** The last part of what it printed, for failure messages. */
  output(): string;
  /** How its database flushes commits, from its start-up log line (`durability`). */
  durability(): Promise<Record<string, string>>;
  /** Sends SIGKILL (kill -9) and waits until the process is gone. */
  kill9(): Promise<void>;
}

/** Starts `main.ts` with `env` on a free loopback port and waits until /api/ready answers 200. */
async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(
    process.execPath,
    ['--experimental-strip-types', '--disable-warning=ExperimentalWarning', main],
    {
      env: {
        ...process.env,
        BTALK_ENV: 'test',
        HOST: '127.0.0.1',
        PORT: String(port),
        PUBLIC_URL: url,
        // info: the start-up line says how the database flushes commits.
        LOG_LEVEL: 'info',
        JWT_SECRET,
        // The writers post as one person, far faster than the per-person write limit.
        WRITE_RATE_LIMIT_PER_MINUTE: '100000',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  let lines = '';
  let durability: Record<string, string> | null = null;
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8000);
    if (durability) return;
    lines += chunk.toString();
    const complete = lines.split('\n');
    lines = complete.pop() ?? '';
    for (const line of complete) {
      if (line.includes('"durability"'))
        durability = (JSON.parse(line) as { durability: Record<string, string> }).durability;
    }
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  const server: ServerProcess = {
    url,
    output: () => output,
    async durability() {
      // The line is written just after the server starts listening: give the pipe a moment.
      for (let waited = 0; !durability && waited < 5000; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      if (!durability) throw new Error(`the server logged no "durability" at start:\n${output}`);
      return durability;
    },
    async kill9() {
      if (!gone()) child.kill('SIGKILL');
      await exited;
    },
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (gone()) throw new Error(`the server exited (${child.exitCode}) before it was ready:\n${output}`);
    try {
      const res = await fetch(`${url}/api/ready`, { headers: { 'x-api-key': DEVELOPMENT_API_KEY } });
      if (res.status === 200) return server;
      await res.body?.cancel();
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await server.kill9();
      throw new Error(`the server at ${url} was not ready within 30 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The data a server process runs on, with one person in it who has accepted the terms. */
interface PreparedData {
  /** What to add to the server's environment to use it. */
  env: Record<string, string>;
  userId: string;
  /** An open session of the person, for their access token. */
  sessionId: string;
  /** Removes the data (the SQLite folder, or the PostgreSQL schema). */
  cleanup(): Promise<void>;
}

/**
 * Migrates a fresh database and writes the person straight into it, before any server runs: a
 * SQLite file in a temporary DATA_DIR, or a schema of its own in the test PostgreSQL, which the
 * server is pointed at through `options=-c search_path=…` in DATABASE_URL.
 */
async function prepareData(kind: DatabaseKind): Promise<PreparedData> {
  if (kind === 'sqlite') {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'btalk-durability-'));
    const removeDataDir = async () => rmSync(dataDir, { recursive: true, force: true });
    const db = openDatabase({ dataDir });
    try {
      await migrateToLatest(db);
      const user = await acceptCurrentTerms(db.kysely, await buildUser(db.kysely));
      const sessionId = await openSession(db.kysely, user.id);
      // An empty DATABASE_URL counts as unset: a PostgreSQL one in the shell must not leak in.
      return {
        env: { DATA_DIR: dataDir, DATABASE_URL: '' },
        userId: user.id,
        sessionId,
        cleanup: removeDataDir,
      };
    } catch (error) {
      await removeDataDir();
      throw error;
    } finally {
      await db.close();
    }
  }
  const testDb = await openTestDatabase('postgres');
  const user = await acceptCurrentTerms(testDb.db.kysely, await buildUser(testDb.db.kysely));
  const sessionId = await openSession(testDb.db.kysely, user.id);
  const databaseUrl = new URL(TEST_DATABASE_URL);
  databaseUrl.searchParams.set('options', `-c search_path=${testDb.db.pgSchema}`);
  // On PostgreSQL DATA_DIR holds only uploaded files (none here): a temporary folder all the same.
  const dataDir = mkdtempSync(path.join(tmpdir(), 'btalk-durability-'));
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: databaseUrl.toString() },
    userId: user.id,
    sessionId,
    async cleanup() {
      rmSync(dataDir, { recursive: true, force: true });
      await testDb.cleanup();
    },
  };
}

/** fetch() against a server as the person: x-api-key, bearer token, JSON. */
async function apiAs(server: ServerProcess, data: Pick<PreparedData, 'userId' | 'sessionId'>) {
  const token = await new AccessTokens(new TextEncoder().encode(JWT_SECRET), server.url, 900).sign(
    data.userId,
    data.sessionId,
  );
  return (pathname: string, init: RequestInit = {}) =>
    fetch(`${server.url}${pathname}`, {
      ...init,
      headers: {
        'x-api-key': DEVELOPMENT_API_KEY,
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        ...init.headers,
      },
    });
}

type Api = Awaited<ReturnType<typeof apiAs>>;

/** A post request a writer sent. */
interface Sent {
  clientId: string;
  body: string;
}

/** A post the server acknowledged (`code: 0`), as it answered it. */
interface Acknowledged extends Sent {
  id: string;
  number: number;
}

/** What happened to the posts sent while the server was killed. */
interface LoadOutcome {
  acknowledged: Acknowledged[];
  /** Requests that got no answer: the kill cut them off. */
  unanswered: Sent[];
  /** Answers other than `code: 0` (none are expected from a healthy server). */
  refused: string[];
  /** Requests still waiting for their answer when SIGKILL was sent. */
  inFlightAtKill: number;
}

/**
 * Posts to the topic from WRITERS concurrent writers and kills the server (SIGKILL) at the
 * KILL_AFTER_ACKNOWLEDGED-th acknowledgement, while the other writers' requests are in flight.
 */
async function writeUntilKilled(server: ServerProcess, api: Api, topicId: string): Promise<LoadOutcome> {
  const outcome: LoadOutcome = { acknowledged: [], unanswered: [], refused: [], inFlightAtKill: -1 };
  let started = 0;
  let inFlight = 0;
  // Set inside the writers; `as` keeps TypeScript from taking it for always null after they finish.
  let killed = null as Promise<void> | null;
  const writer = async (w: number) => {
    while (!killed && started < MAX_POSTS) {
      started += 1;
      const sent: Sent = {
        clientId: `kill9-${w}-${newId()}`,
        body: `Post ${started} of writer ${w}, ${randomBytes(8).toString('hex')} ✓`,
      };
      inFlight += 1;
      try {
        const res = await api(`/api/topics/${topicId}/posts`, { method: 'POST', body: JSON.stringify(sent) });
        const answer = (await res.json()) as { code: number; data?: Post };
        if (answer.code === 0 && answer.data) {
          outcome.acknowledged.push({ ...sent, id: answer.data.id, number: answer.data.number });
          if (!killed && outcome.acknowledged.length >= KILL_AFTER_ACKNOWLEDGED) {
            outcome.inFlightAtKill = inFlight - 1;
            killed = server.kill9();
          }
        } else {
          outcome.refused.push(`${res.status} ${JSON.stringify(answer)}`);
        }
      } catch {
        outcome.unanswered.push(sent);
      } finally {
        inFlight -= 1;
      }
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
  // Only when the kill never came (MAX_POSTS reached first); the assertions then fail.
  if (!killed) await server.kill9();
  else await killed;
  return outcome;
}

/** Every post of the topic, paging through with the cursor (newest first). */
async function listAllPosts(api: Api, topicId: string): Promise<Post[]> {
  const posts: Post[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const res = await api(`/api/topics/${topicId}/posts?limit=100${query}`);
    const answer = (await res.json()) as { code: number; data: PostPage };
    if (answer.code !== 0) throw new Error(`listing the posts answered ${JSON.stringify(answer)}`);
    posts.push(...answer.data.items);
    cursor = answer.data.nextCursor;
  } while (cursor);
  return posts;
}

/** The values that occur more than once (again for each repeat). */
function duplicates<T>(values: T[]): T[] {
  const seen = new Set<T>();
  return values.filter((v) => {
    if (seen.has(v)) return true;
    seen.add(v);
    return false;
  });
}

describeEachDatabase('kill -9 during writes', (kind) => {
  let data: PreparedData | null = null;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    data = await prepareData(kind);
  });

  afterAll(async () => {
    for (const server of servers) await server.kill9();
    await data?.cleanup();
  });

  it('loses no acknowledged post, and client retries after the restart make no duplicates', async () => {
    if (!data) throw new Error('the data was not prepared');
    const first = await startServerProcess(data.env);
    servers.push(first);
    // A kill -9 cannot lose what the operating system already holds (only a power cut can), so the
    // kill below would pass with fsync off: the server's own connection must flush every commit.
    const durability = await first.durability();
    if (kind === 'sqlite') expect(durability).toEqual({ journalMode: 'wal', synchronous: 'full' });
    else expect(durability.synchronousCommit).not.toBe('off');
    const api1 = await apiAs(first, data);
    const created = await api1('/api/topics', {
      method: 'POST',
      body: JSON.stringify({ title: 'Durability under kill -9', visibility: 'organisation' }),
    });
    const answer = (await created.json()) as { code: number; data: { id: string } };
    expect(answer.code, JSON.stringify(answer)).toBe(0);
    const topic = answer.data;

    const outcome = await writeUntilKilled(first, api1, topic.id);
    expect(outcome.refused, first.output()).toEqual([]);
    expect(outcome.acknowledged.length).toBeGreaterThanOrEqual(KILL_AFTER_ACKNOWLEDGED);
    // The kill came while other writers' requests were on their way, not between requests.
    expect(outcome.inFlightAtKill).toBeGreaterThan(0);

    const second = await startServerProcess(data.env);
    servers.push(second);
    const api2 = await apiAs(second, data);
    const afterRestart = await listAllPosts(api2, topic.id);
    expect(duplicates(afterRestart.map((p) => p.clientId))).toEqual([]);
    expect(duplicates(afterRestart.map((p) => p.number))).toEqual([]);
    const byClientId = new Map(afterRestart.map((p) => [p.clientId, p]));
    const lost = outcome.acknowledged.filter((a) => {
      const post = byClientId.get(a.clientId);
      return !post || post.id !== a.id || post.number !== a.number || post.body !== a.body;
    });
    expect(lost, `${lost.length} acknowledged post(s) missing or changed after kill -9`).toEqual([]);
    // Nothing appears that no writer sent.
    const sent = new Set([...outcome.acknowledged, ...outcome.unanswered].map((s) => s.clientId));
    expect(afterRestart.filter((p) => !sent.has(p.clientId))).toEqual([]);

    // A client retries what got no answer with the same clientId: each ends up there exactly once.
    for (const retry of outcome.unanswered) {
      const res = await api2(`/api/topics/${topic.id}/posts`, {
        method: 'POST',
        body: JSON.stringify(retry),
      });
      expect(((await res.json()) as { code: number }).code).toBe(0);
    }
    const afterRetries = await listAllPosts(api2, topic.id);
    expect(duplicates(afterRetries.map((p) => p.clientId))).toEqual([]);
    expect(afterRetries).toHaveLength(sent.size);
    const retried = new Map(afterRetries.map((p) => [p.clientId, p.body]));
    for (const s of [...outcome.acknowledged, ...outcome.unanswered]) {
      expect(retried.get(s.clientId)).toBe(s.body);
    }
  }, 60_000);
});
