/**
 * Writes that do not queue (issue 14, point 5): POST a post with 10 concurrent writers (each request
 * its own clientId), to one topic and to 10 topics, on SQLite (a file: WAL, synchronous=FULL) and,
 * with `--postgres`, on PostgreSQL (a fresh schema, dropped after). The real app runs in a child
 * process, which also measures its event loop's delay during the load
 * (`perf_hooks.monitorEventLoopDelay`); the writers (autocannon) run in this process.
 *
 * `--before <checkout>` runs the same cases against another checkout's server code (e.g. a worktree
 * of HEAD) in the same run, alternating, and prints both side by side; `--rounds n` runs each case n
 * times (alternating) and prints the medians.
 *
 * Run: `node --experimental-strip-types bench/writes.ts [--seconds 5] [--rounds 1] [--postgres] [--before <dir>]`.
 */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';

const here = path.dirname(new URL(import.meta.url).pathname);
const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    postgres: { type: 'boolean', default: false },
    before: { type: 'string' },
    serve: { type: 'string' },
    topics: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '1' },
  },
});
const WRITERS = 10;
const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** What the server process tells the writers: where it listens, who writes, in which topics. */
interface Ready {
  url: string;
  apiKey: string;
  tokens: string[];
  topicIds: string[];
}

/** The event loop's delay while the writers wrote, in ms. */
interface LoopDelay {
  p50: number;
  p99: number;
  max: number;
}

/**
 * The server side (`--serve <apps/server/src of a checkout>`): opens the database named by the
 * environment, starts the app on a loopback port, writes the writers and topics, and measures the
 * event loop's delay between the parent's `start` and `stop`.
 */
async function serve(src: string): Promise<void> {
  const load = (file: string) => import(path.join(src, file));
  const { buildApp } = await load('app.ts');
  const { loadConfig } = await load('config/index.ts');
  const { createContext } = await load('context.ts');
  const { migrateToLatest, openDatabase } = await load('db/index.ts');
  const { buildUser } = await load('test/factories.ts');
  const { acceptCurrentTerms, sessionToken } = await load('test/session.ts');
  const dataDir = process.env.BENCH_DATA_DIR!;
  const config = loadConfig({
    BTALK_ENV: 'development',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WRITE_RATE_LIMIT_PER_MINUTE: '1000000',
  });
  const schema = process.env.BENCH_PG_SCHEMA;
  const db = schema
    ? openDatabase({ databaseUrl: POSTGRES_URL, dataDir, pgSchema: schema })
    : openDatabase({ dataDir });
  await migrateToLatest(db);
  const ctx = createContext(config, db, 'bench');
  const app = await buildApp(ctx, { logger: false });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const tokens: string[] = [];
  for (let i = 0; i < WRITERS; i++) {
    const user = await acceptCurrentTerms(
      db.kysely,
      await buildUser(db.kysely, { display_name: `Writer ${i}` }),
    );
    tokens.push(await sessionToken({ ctx }, user.id));
  }
  const topicIds: string[] = [];
  for (let i = 0; i < Number(args.topics); i++) {
    const created = await app.inject({
      method: 'POST',
      url: '/api/topics',
      headers: { 'x-api-key': config.apiKey, authorization: `Bearer ${tokens[0]}` },
      payload: { title: `Writes ${i}`, visibility: 'organisation' },
    });
    topicIds.push(created.json().data.id);
  }
  // Every writer can post in every topic before the load starts: a refusal would be measured as speed.
  for (const [i, token] of tokens.entries()) {
    for (const topicId of topicIds) {
      const res = await app.inject({
        method: 'POST',
        url: `/api/topics/${topicId}/posts`,
        headers: { 'x-api-key': config.apiKey, authorization: `Bearer ${token}` },
        payload: { clientId: `warm-up-${i}-${topicId}`, body: 'warm-up' },
      });
      if (res.statusCode !== 200) throw new Error(`writer ${i} cannot post: ${res.statusCode} ${res.body}`);
    }
  }
  const delay = monitorEventLoopDelay({ resolution: 10 });
  process.on('message', async (message: string) => {
    if (message === 'start') {
      delay.reset();
      delay.enable();
    } else if (message === 'stop') {
      delay.disable();
      const ms = (ns: number) => Math.round(ns / 1e4) / 100;
      process.send!({ p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) });
    } else if (message === 'exit') {
      await app.close();
      process.exit(0);
    }
  });
  process.send!({ url, apiKey: config.apiKey, tokens, topicIds } satisfies Ready);
}

/** One case: a fresh server of `checkout` on a fresh database, 10 writers for `seconds`. */
async function runCase(checkout: string, database: 'sqlite' | 'postgres', topics: number) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'btalk-writes-'));
  const schema = database === 'postgres' ? `bench_writes_${randomBytes(6).toString('hex')}` : undefined;
  if (schema) await adminQuery(`create schema ${schema}`);
  const child = fork(
    path.join(here, 'writes.ts'),
    ['--serve', path.join(checkout, 'apps/server/src'), '--topics', String(topics)],
    {
      env: { ...process.env, BENCH_DATA_DIR: dataDir, ...(schema ? { BENCH_PG_SCHEMA: schema } : {}) },
      execArgv: ['--experimental-strip-types', '--disable-warning=ExperimentalWarning'],
    },
  );
  const next = <T>() => new Promise<T>((resolve) => child.once('message', (m) => resolve(m as T)));
  try {
    const ready = await next<Ready>();
    let writes = 0;
    child.send('start');
    const result = await autocannon({
      url: ready.url,
      connections: WRITERS,
      duration: Number(args.seconds),
      requests: [
        {
          method: 'POST',
          // Request n is written by person n mod 10, to topic n mod topics (one topic: all to it).
          setupRequest: (request) => {
            const i = writes++ % WRITERS;
            return {
              ...request,
              path: `/api/topics/${ready.topicIds[i % ready.topicIds.length]}/posts`,
              headers: {
                'x-api-key': ready.apiKey,
                authorization: `Bearer ${ready.tokens[i]}`,
                'content-type': 'application/json',
              },
              body: JSON.stringify({ clientId: crypto.randomUUID(), body: `benchmark post by writer ${i}` }),
            };
          },
        },
      ],
    });
    const stopped = next<LoopDelay>();
    child.send('stop');
    const loop = await stopped;
    const errors = result.errors + result.timeouts + result.non2xx;
    if (errors > 0) throw new Error(`${errors} requests failed; the figures would not mean anything.`);
    return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, loop };
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.send('exit');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
    if (schema) await adminQuery(`drop schema if exists ${schema} cascade`);
  }
}

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** The middle value (the lower of the two middle ones for an even count). */
function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
}

async function main(): Promise<void> {
  const checkouts: [string, string][] = [
    ...(args.before ? ([['before', path.resolve(args.before)]] as [string, string][]) : []),
    ['after', path.resolve(here, '..')],
  ];
  const databases: ('sqlite' | 'postgres')[] = args.postgres ? ['sqlite', 'postgres'] : ['sqlite'];
  const rounds = Number(args.rounds);
  console.log(
    '| database | topics | code | posts/s | p50 ms | p99 ms | loop delay p99 ms | loop delay max ms | posts/s of each round |',
  );
  console.log('| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | --- |');
  for (const database of databases) {
    for (const topics of [1, 10]) {
      // Rounds alternate between the checkouts, so that a busy minute of the machine hits both.
      const results = new Map<string, Awaited<ReturnType<typeof runCase>>[]>();
      for (let round = 0; round < rounds; round++) {
        for (const [name, checkout] of checkouts) {
          const r = await runCase(checkout, database, topics);
          console.error(`${database} ${topics} ${name} round ${round + 1}: ${Math.round(r.rps)} posts/s`);
          results.set(name, [...(results.get(name) ?? []), r]);
        }
      }
      for (const [name, rs] of results) {
        const m = (pick: (r: (typeof rs)[number]) => number) => median(rs.map(pick));
        console.log(
          `| ${database} | ${topics} | ${name} | ${Math.round(m((r) => r.rps))} | ${m((r) => r.p50)} | ${m((r) => r.p99)} | ${m((r) => r.loop.p99)} | ${m((r) => r.loop.max)} | ${rs.map((r) => Math.round(r.rps)).join(', ')} |`,
        );
      }
    }
  }
  console.log(
    `\n${WRITERS} writers, ${args.seconds} s per case, medians of ${rounds} round(s), Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.`,
  );
}

if (args.serve) await serve(args.serve);
else await main();
