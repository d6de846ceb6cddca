import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../ids.ts';
import { describeEachDatabase } from '../test/db.ts';
import { freePort } from '../test/listening.ts';
import { parseScrape } from '../test/prometheus.ts';
import {
  apiAs,
  type PreparedData,
  prepareData,
  type ServerProcess,
  startServerProcess,
} from '../test/serverProcess.ts';

/** A GET to 127.0.0.1:`port` with the Host header `host` (fetch cannot set Host), redirects not followed. */
function getWithHost(
  port: number,
  path: string,
  host: string,
): Promise<{ status: number; location?: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Whether anything accepts a TCP connection on 127.0.0.1:`port`. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/*
 * The real server (main.ts) with METRICS_PORT: main.ts starts the metrics listener and stops it on
 * SIGTERM; the database is a SQLite file (its group-commit writer) or PostgreSQL (its pool).
 */
describeEachDatabase('metrics on METRICS_PORT of the running server', (kind) => {
  let data: PreparedData;
  let server: ServerProcess;
  let metricsPort: number;

  beforeAll(async () => {
    data = await prepareData(kind);
    metricsPort = await freePort();
    server = await startServerProcess({ ...data.env, METRICS_PORT: String(metricsPort) });
  }, 60_000);

  afterAll(async () => {
    await server?.kill9();
    await data?.cleanup();
  });

  it('logs PUBLIC_URL as the address to open, and sends a page opened at the other loopback name there', async () => {
    // First, while the start-up line is still in the kept output (its last 8,000 characters).
    expect(server.output()).toContain(`is running: open ${server.url}`);
    // Not at a terminal: JSON lines only, for log collectors; no plain line.
    expect(server.output()).not.toMatch(/^BTalk is running/m);
    const port = Number(new URL(server.url).port);
    const page = await getWithHost(port, '/topics/x?y=1', `localhost:${port}`);
    expect(page).toEqual({ status: 308, location: `${server.url}/topics/x?y=1` });
    // The API answers at any host: probes and other instances call it by address.
    expect((await getWithHost(port, '/api/health', `localhost:${port}`)).status).toBe(200);
    expect((await getWithHost(port, '/__/firebase/init.json', `127.0.0.1:${port}`)).status).toBe(200);
  });

  it("serves /metrics there without a token, with the database engine's own series; the main port does not", async () => {
    const api = await apiAs(server, data);
    const topic = await api('/api/topics', {
      method: 'POST',
      body: JSON.stringify({ title: 'Scraped', visibility: 'organisation' }),
    });
    expect(topic.status).toBe(200);
    const topicId = ((await topic.json()) as { data: { id: string } }).data.id;
    const post = await api(`/api/topics/${topicId}/posts`, {
      method: 'POST',
      body: JSON.stringify({ clientId: newId(), body: 'Counted' }),
    });
    expect(post.status).toBe(200);

    const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const s = parseScrape(await res.text());
    expect(
      s.value('btalk_http_requests_total', {
        method: 'POST',
        route: '/api/topics/:topicId/posts',
        status: '200',
      }),
    ).toBe(1);
    expect(s.types.get('process_resident_memory_bytes')).toBe('gauge');
    if (kind === 'sqlite') {
      // The topic and the post were written in group commits of the file's write connection.
      expect(s.value('btalk_sqlite_commit_batch_size_count')).toBeGreaterThanOrEqual(2);
      expect(s.value('btalk_sqlite_commit_batch_size_sum')).toBeGreaterThanOrEqual(2);
      expect(s.value('btalk_sqlite_write_waiting_transactions')).toBe(0);
      expect(s.types.has('btalk_db_pool_connections')).toBe(false);
    } else {
      // DATABASE_POOL_SIZE's default.
      expect(s.value('btalk_db_pool_max_connections')).toBe(10);
      expect(s.value('btalk_db_pool_connections')).toBeGreaterThanOrEqual(1);
      expect(s.value('btalk_db_pool_waiting_requests')).toBe(0);
      expect(s.types.has('btalk_sqlite_commit_batch_size')).toBe(false);
    }

    // Only /metrics on that port.
    expect((await fetch(`http://127.0.0.1:${metricsPort}/api/health`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { method: 'POST' })).status).toBe(405);
    // The main port has no METRICS_TOKEN: not served there.
    const main = await fetch(`${server.url}/metrics`);
    expect(main.status).toBe(404);
    expect(((await main.json()) as { code: number }).code).toBe(4040);
  });

  it('closes the metrics port on SIGTERM', async () => {
    expect(await accepts(metricsPort)).toBe(true);
    expect(await server.terminate()).toBe(0);
    expect(await accepts(metricsPort)).toBe(false);
  });
});

/** util-linux's `script`: runs a command on a pseudo-terminal, as a person's `npm start` does. */
const SCRIPT = '/usr/bin/script';

describe('the start-up line at a terminal', () => {
  const present = existsSync(SCRIPT);
  if (!present && process.env.CI === 'true')
    throw new Error(`${SCRIPT} (util-linux) is needed under CI=true`);
  if (!present) console.warn(`SKIPPED the terminal start-up line test: ${SCRIPT} (util-linux) is missing.`);

  it.skipIf(!present)(
    'prints the address to open plainly, even at LOG_LEVEL=warn',
    async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'btalk-tty-'));
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const main = fileURLToPath(new URL('../main.ts', import.meta.url));
      const command = [
        process.execPath,
        '--experimental-strip-types',
        '--disable-warning=ExperimentalWarning',
        main,
      ]
        .map((part) => `'${part.replaceAll("'", "'\\''")}'`)
        .join(' ');
      const child = spawn(SCRIPT, ['-qec', `exec ${command}`, '/dev/null'], {
        env: {
          ...process.env,
          SHELL: '/bin/sh',
          BTALK_ENV: 'test',
          HOST: '127.0.0.1',
          PORT: String(port),
          PUBLIC_URL: url,
          DATA_DIR: dataDir,
          DATABASE_URL: '',
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      const exited = once(child, 'exit');
      try {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(
            () => reject(new Error(`no address line within 60 s:\n${output}`)),
            60_000,
          );
          const read = (chunk: Buffer) => {
            output += chunk.toString();
            if (output.includes(`BTalk is running: open ${url}`)) {
              clearTimeout(timer);
              resolve();
            }
          };
          child.stdout.on('data', read);
          child.stderr.on('data', read);
          child.once('exit', () =>
            reject(new Error(`the server exited before printing the address:\n${output}`)),
          );
        });
        // LOG_LEVEL=warn: no JSON info line, only the plain one.
        expect(output).not.toContain('"msg":"BTalk');
      } finally {
        child.kill('SIGTERM');
        await exited;
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    90_000,
  );
});
