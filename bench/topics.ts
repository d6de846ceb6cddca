/**
 * Benchmark of the topic API over HTTP on loopback: writing posts and reading a topic page, next to
 * a bare Fastify route on the same machine in the same run. Prints a Markdown table for
 * docs/benchmarks.md. Run: `node --experimental-strip-types bench/topics.ts [seconds per case]`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config/index.ts';
import { createContext } from '../apps/server/src/context.ts';
import { migrateToLatest, openDatabase } from '../apps/server/src/db/index.ts';
import { newId } from '../apps/server/src/ids.ts';
import { buildUser } from '../apps/server/src/test/factories.ts';
import { acceptCurrentTerms, sessionToken } from '../apps/server/src/test/session.ts';
import { serverVersion } from '../apps/server/src/version.ts';

const seconds = Number(process.argv[2] ?? 5);
const connections = 10;

async function run(name: string, options: autocannon.Options) {
  const result = await autocannon({ connections, duration: seconds, ...options });
  const errors = result.errors + result.timeouts + result.non2xx;
  console.error(
    `${name}: ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms, errors ${errors}`,
  );
  if (errors > 0) throw new Error(`${name}: ${errors} requests failed; the figures would not mean anything.`);
  return { name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'btalk-bench-'));
// One author writes the 200 posts in a moment: far past a person's write limit.
const config = loadConfig({
  BTALK_ENV: 'development',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  WRITE_RATE_LIMIT_PER_MINUTE: '1000000',
});
const db = openDatabase({ dataDir });
await migrateToLatest(db);
const ctx = createContext(config, db, serverVersion);
const app = await buildApp(ctx, { logger: false });
const bare = Fastify({ logger: false });
try {
  // Both have accepted the current terms, as any person using topics has.
  const author = await acceptCurrentTerms(
    db.kysely,
    await buildUser(db.kysely, { display_name: 'Bench Author' }),
  );
  const reader = await acceptCurrentTerms(
    db.kysely,
    await buildUser(db.kysely, { display_name: 'Bench Reader' }),
  );
  const headers = (token: string) => ({
    'x-api-key': config.apiKey,
    authorization: `Bearer ${token}`,
    'content-type': 'application/json',
  });
  const authorHeaders = headers(await sessionToken({ ctx }, author.id));
  const readerHeaders = headers(await sessionToken({ ctx }, reader.id));
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const created = await app.inject({
    method: 'POST',
    url: '/api/topics',
    headers: authorHeaders,
    payload: { title: 'Benchmark ประชุม', visibility: 'organisation' },
  });
  const topicId = created.json().data.id as string;
  for (let i = 0; i < 200; i++) {
    await app.inject({
      method: 'POST',
      url: `/api/topics/${topicId}/posts`,
      headers: authorHeaders,
      payload: { clientId: newId(), body: `สวัสดีครับ post ${i} with **Markdown**` },
    });
  }
  // The bare route answers a page of the same size, so that serialisation is part of both.
  const page = (
    await app.inject({ method: 'GET', url: `/api/topics/${topicId}/posts?limit=30`, headers: readerHeaders })
  ).body;
  bare.get('/bare', async (_request, reply) => reply.type('application/json').send(page));
  const bareBase = await bare.listen({ port: 0, host: '127.0.0.1' });

  const results = [
    await run('bare Fastify route (same page JSON)', { url: `${bareBase}/bare` }),
    await run('GET topic page (30 posts)', {
      url: `${base}/api/topics/${topicId}/posts?limit=30`,
      headers: readerHeaders,
    }),
    await run('POST a post', {
      url: `${base}/api/topics/${topicId}/posts`,
      method: 'POST',
      headers: authorHeaders,
      setupClient: (client) => {
        client.setBody(JSON.stringify({ clientId: newId(), body: 'benchmark post' }));
        client.on('response', () =>
          client.setBody(JSON.stringify({ clientId: newId(), body: 'benchmark post' })),
        );
      },
    }),
  ];
  const bareRps = results[0]!.rps;
  console.log(`| case | req/s | p50 ms | p99 ms | bare route ÷ case |`);
  console.log(`| --- | ---: | ---: | ---: | ---: |`);
  for (const r of results) {
    console.log(
      `| ${r.name} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${(bareRps / r.rps).toFixed(2)}x |`,
    );
  }
  console.log(
    `\n${connections} connections, ${seconds} s per case, SQLite (WAL, synchronous=FULL), Node ${process.version}.`,
  );
} finally {
  await bare.close();
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
}
