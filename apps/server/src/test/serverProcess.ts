import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AccessTokens } from '../auth/accessTokens.ts';
import { DEVELOPMENT_API_KEY } from '../config/index.ts';
import { type DatabaseKind, migrateToLatest, openDatabase } from '../db/index.ts';
import { openTestDatabase, TEST_DATABASE_URL } from './db.ts';
import { buildUser } from './factories.ts';
import { freePort } from './listening.ts';
import { acceptCurrentTerms, openSession } from './session.ts';

/*
 * The real server (`main.ts`) as a child process, for tests that kill, stop or restart it: the
 * durability test (kill -9), backups taken while it serves, rolling restarts behind a load balancer.
 */

const main = fileURLToPath(new URL('../main.ts', import.meta.url));

/** Signs the test's access tokens; the server is given the same secret. */
export const JWT_SECRET = randomBytes(36).toString('base64url');

/** The real server, running as a child process. */
export interface ServerProcess {
  /** Its own address, e.g. `http://127.0.0.1:43123`. */
  url: string;
  /** Its PUBLIC_URL (its tokens' issuer): `url` unless the test put a load balancer in front. */
  publicUrl: string;
  /** The port it listens on (a restart can take the same one). */
  port: number;
  /** The last part of what it printed, for failure messages. */
  output(): string;
  /** How its database flushes commits, from its start-up log line (`durability`). */
  durability(): Promise<Record<string, string>>;
  /** Sends SIGKILL (kill -9) and waits until the process is gone. */
  kill9(): Promise<void>;
  /** Sends SIGTERM and answers the exit code once the process is gone (null: ended by a signal). */
  terminate(): Promise<number | null>;
}

/**
 * Starts `main.ts` with `env` on a loopback port (`options.port`, e.g. to restart an instance behind
 * a load balancer where it was, or a free one) and waits until /api/ready answers 200. PUBLIC_URL is
 * its own address unless `env` says otherwise (the load balancer's).
 */
export async function startServerProcess(
  env: Record<string, string>,
  options: { port?: number } = {},
): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const publicUrl = env.PUBLIC_URL ?? url;
  const child: ChildProcess = spawn(
    process.execPath,
    ['--experimental-strip-types', '--disable-warning=ExperimentalWarning', main],
    {
      env: {
        ...process.env,
        BTALK_ENV: 'test',
        HOST: '127.0.0.1',
        PORT: String(port),
        PUBLIC_URL: publicUrl,
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
    publicUrl,
    port,
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
    async terminate() {
      if (!gone()) child.kill('SIGTERM');
      await exited;
      return child.exitCode;
    },
  };
  // Generous: a start takes a few seconds, and several times that on a loaded 2-core machine.
  const deadline = Date.now() + 60_000;
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
      throw new Error(`the server at ${url} was not ready within 60 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The data a server process runs on, with one person in it who has accepted the terms. */
export interface PreparedData {
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
export async function prepareData(kind: DatabaseKind): Promise<PreparedData> {
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

/** An access token of the person for a server whose PUBLIC_URL is `publicUrl`, signed by `secret`. */
export function accessTokenFor(
  publicUrl: string,
  data: Pick<PreparedData, 'userId' | 'sessionId'>,
  secret: string = JWT_SECRET,
): Promise<string> {
  return new AccessTokens(new TextEncoder().encode(secret), publicUrl, 900).sign(data.userId, data.sessionId);
}

/** Where apiAs sends its requests and how it signs its token. */
export interface ApiOptions {
  /** The server itself (default), or the load balancer in front of it. */
  base?: string;
  /** The server's token secret: JWT_SECRET (default), or the one it made in its DATA_DIR. */
  secret?: string;
}

/** fetch() against a server as the person: x-api-key, bearer token, JSON. */
export async function apiAs(
  server: Pick<ServerProcess, 'url' | 'publicUrl'>,
  data: Pick<PreparedData, 'userId' | 'sessionId'>,
  options: ApiOptions = {},
) {
  const token = await accessTokenFor(server.publicUrl, data, options.secret);
  const base = options.base ?? server.url;
  return (pathname: string, init: RequestInit = {}) =>
    fetch(`${base}${pathname}`, {
      ...init,
      headers: {
        'x-api-key': DEVELOPMENT_API_KEY,
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        ...init.headers,
      },
    });
}

export type Api = Awaited<ReturnType<typeof apiAs>>;
