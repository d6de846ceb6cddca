/**
 * The API pages against bare Fastify (issue 14, point 4): the topic page, Home's topic list and a
 * search matching a few posts among many, each next to a bare Fastify route answering the SAME JSON,
 * both on 127.0.0.1 in this run (autocannon, 10 connections or `--connections=N`, the bare route right
 * before its case).
 * Measured with one topic at 200 posts, then again once 20,000 more posts are in it (Home's list and
 * search must not slow down with the size of a topic). Prints a Markdown table for docs/benchmarks.md.
 *
 * Run: `node --experimental-strip-types bench/pages.ts [seconds per case] [--postgres]`
 * (PostgreSQL: a fresh schema in TEST_DATABASE_URL or the local test database, dropped at the end).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { buildApp } from '../apps/server/src/app.ts';
import { createContext } from '../apps/server/src/context.ts';
import { migrateToLatest } from '../apps/server/src/db/index.ts';
import { newId } from '../apps/server/src/ids.ts';
import { buildUser } from '../apps/server/src/test/factories.ts';
import { acceptCurrentTerms, sessionToken } from '../apps/server/src/test/session.ts';
import { serverVersion } from '../apps/server/src/version.ts';
import { openBenchDatabase, productionBenchConfig } from './benchDb.ts';

const args = process.argv.slice(2);
const POSTGRES = args.includes('--postgres');
const seconds = Number(args.find((a) => /^\d+$/.test(a)) ?? 5);
/** `--connections=N`: 10 by default; 1 shows one request's latency (its waits for the database) alone. */
const connections = Number(
  args.find((a) => a.startsWith('--connections='))?.slice('--connections='.length) ?? 10,
);
/** Topics on Home besides the big one: more than a page of 30. */
const OTHER_TOPICS = 40;
/** Posts added to the big topic for the second round. */
const EXTRA_POSTS = 20_000;
/** The search: a Thai word ("generator") in 5 of the first 200 posts, and nowhere else. */
const QUERY = 'เครื่องปั่นไฟ';

interface Result {
  name: string;
  rps: number;
  p99: number;
  /** CPU time of this process (server and autocannon) per request: steadier than req/s on a shared machine. */
  cpuUs: number;
}

async function run(name: string, options: autocannon.Options): Promise<Result> {
  const cpu = process.cpuUsage();
  const result = await autocannon({ connections, duration: seconds, ...options });
  const used = process.cpuUsage(cpu);
  const errors = result.errors + result.timeouts + result.non2xx;
  const cpuUs = (used.user + used.system) / result.requests.total;
  console.error(
    `${name}: ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms, ${Math.round(cpuUs)} us CPU/request, errors ${errors}`,
  );
  if (errors > 0) throw new Error(`${name}: ${errors} requests failed; the figures would not mean anything.`);
  return { name, rps: result.requests.average, p99: result.latency.p99, cpuUs };
}

const { db, cleanup } = await openBenchDatabase(POSTGRES);
await migrateToLatest(db);
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'btalk-bench-files-'));
// Production, as deployed (answers are not re-validated there, see http/serializer.ts); one author
// writes hundreds of posts in a moment: far past a person's write limit.
const config = productionBenchConfig(dataDir);
const ctx = createContext(config, db, serverVersion);
const app = await buildApp(ctx, { logger: false });
const bare = Fastify({ logger: false });
const engine = POSTGRES ? 'PostgreSQL' : 'SQLite';
try {
  const kysely = db.kysely;
  const author = await acceptCurrentTerms(kysely, await buildUser(kysely, { display_name: 'Bench Author' }));
  const reader = await acceptCurrentTerms(kysely, await buildUser(kysely, { display_name: 'Bench Reader' }));
  const headers = (token: string) => ({
    'x-api-key': config.apiKey,
    authorization: `Bearer ${token}`,
    'content-type': 'application/json',
  });
  const authorHeaders = headers(await sessionToken({ ctx }, author.id));
  const readerHeaders = headers(await sessionToken({ ctx }, reader.id));
  const call = async (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    as = authorHeaders,
    payload?: object,
  ) => {
    const { 'content-type': _type, ...noBody } = as;
    const response = await app.inject({
      method,
      url,
      ...(payload ? { headers: as, payload } : { headers: noBody }),
    });
    if (response.statusCode !== 200)
      throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
    return response;
  };
  const createTopic = async (title: string) =>
    (await call('POST', '/api/topics', authorHeaders, { title, visibility: 'organisation' })).json().data
      .id as string;
  const writePost = async (topicId: string, body: string, as = authorHeaders) =>
    (await call('POST', `/api/topics/${topicId}/posts`, as, { clientId: newId(), body })).json().data
      .id as string;

  // Home: 40 topics of 3 posts each that the reader follows, then the big topic (newest activity).
  for (let t = 0; t < OTHER_TOPICS; t++) {
    const topicId = await createTopic(`หัวข้อ ${t} Benchmark`);
    for (let i = 0; i < 3; i++) await writePost(topicId, `โพสต์ ${i} in topic ${t}`);
    await call('PUT', `/api/topics/${topicId}/follow`, readerHeaders, { following: true });
  }
  const topicId = await createTopic('Benchmark ประชุม');
  await call('PUT', `/api/topics/${topicId}/follow`, readerHeaders, { following: true });
  for (let i = 0; i < 200; i++) {
    const body =
      i % 40 === 0
        ? `ตรวจ${QUERY}ชั้นใต้ดิน post ${i} with **Markdown**`
        : `สวัสดีครับ post ${i} with **Markdown** @[Bench Reader](user:${reader.id})`;
    const postId = await writePost(topicId, body, i % 25 === 0 ? readerHeaders : authorHeaders);
    if (i % 3 === 0) {
      await call('POST', `/api/posts/${postId}/reactions`, readerHeaders, { clientId: newId(), emoji: '👍' });
    }
    if (i % 50 === 7) await call('DELETE', `/api/posts/${postId}`);
  }
  // The reader has read the first hundred posts of the big topic.
  await call('PUT', `/api/topics/${topicId}/read`, readerHeaders, { lastReadNumber: 100 });

  const cases = [
    { name: 'topic page (30 posts)', url: `/api/topics/${topicId}/posts?limit=30` },
    { name: 'Home list (mine, 30 topics)', url: '/api/topics?scope=mine&limit=30' },
    { name: `search "${QUERY}" (5 hits)`, url: `/api/search?q=${encodeURIComponent(QUERY)}&limit=20` },
  ];
  // The bare routes answer the app's JSON of the moment, so that serialisation is part of both.
  const bodies = new Map<string, string>();
  cases.forEach((c, i) => {
    bare.get(`/bare/${i}`, async (_request, reply) => reply.type('application/json').send(bodies.get(c.url)));
  });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const bareBase = await bare.listen({ port: 0, host: '127.0.0.1' });

  const rounds: { posts: number; results: { name: string; bare: Result; app: Result }[] }[] = [];
  const measureRound = async (posts: number) => {
    const results = [];
    for (const [i, c] of cases.entries()) {
      bodies.set(c.url, (await call('GET', c.url, readerHeaders)).body);
      // Warm both up first (JIT, statement caches): the first case would otherwise pay for it.
      await autocannon({ connections, duration: 1, url: `${bareBase}/bare/${i}` });
      await autocannon({ connections, duration: 1, url: `${base}${c.url}`, headers: readerHeaders });
      const bareResult = await run(`bare: ${c.name}`, { url: `${bareBase}/bare/${i}` });
      const appResult = await run(`${c.name}, ${posts} posts`, {
        url: `${base}${c.url}`,
        headers: readerHeaders,
      });
      results.push({ name: c.name, bare: bareResult, app: appResult });
    }
    rounds.push({ posts, results });
  };

  await measureRound(200);

  // 20,000 more posts in the big topic, newer than the search's hits, written straight to the
  // tables the app writes (posts, the search index, the topic's counter) to seed in seconds.
  const start = Date.now();
  for (let from = 0; from < EXTRA_POSTS; from += 500) {
    const rows = Array.from({ length: Math.min(500, EXTRA_POSTS - from) }, (_, k) => {
      const n = 201 + from + k;
      const at = new Date(start + n).toISOString();
      return {
        id: newId(),
        topic_id: topicId,
        author_id: author.id,
        client_id: newId(),
        request_hash: 'bench',
        number: n,
        body: `ข้อความที่ ${n} about the quarterly report`,
        comment_count: 0,
        pinned_at: null,
        pinned_by: null,
        edited_at: null,
        deleted_at: null,
        deleted_by: null,
        created_at: at,
        updated_at: at,
      };
    });
    await kysely.insertInto('posts').values(rows).execute();
    await kysely
      .insertInto('search_documents')
      .values(
        rows.map((r) => ({
          kind: 'post' as const,
          ref_id: r.id,
          topic_id: topicId,
          post_id: r.id,
          author_id: r.author_id,
          body: r.body,
          created_at: r.created_at,
        })),
      )
      .execute();
  }
  await kysely
    .updateTable('topics')
    .set({
      post_count: 200 + EXTRA_POSTS,
      last_activity_at: new Date(start + 201 + EXTRA_POSTS).toISOString(),
    })
    .where('id', '=', topicId)
    .execute();
  // PostgreSQL: statistics and the GIN indexes' pending entries, as autovacuum leaves them after such
  // a load (a search reads every pending entry until then).
  if (POSTGRES) await sql`vacuum analyze`.execute(kysely);

  await measureRound(200 + EXTRA_POSTS);

  console.log(
    `| ${engine} case | posts in the big topic | app req/s | app p99 ms | bare req/s | bare ÷ app (req/s) | app CPU µs/req | bare CPU µs/req | app ÷ bare (CPU) |`,
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const round of rounds) {
    for (const r of round.results) {
      console.log(
        `| ${r.name} | ${round.posts.toLocaleString('en')} | ${Math.round(r.app.rps)} | ${r.app.p99} | ${Math.round(r.bare.rps)} | ${(r.bare.rps / r.app.rps).toFixed(2)}x | ${Math.round(r.app.cpuUs)} | ${Math.round(r.bare.cpuUs)} | ${(r.app.cpuUs / r.bare.cpuUs).toFixed(2)}x |`,
      );
    }
  }
  console.log(
    `\n${connections} connections, ${seconds} s per case, ${engine}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.`,
  );
} finally {
  await bare.close();
  await app.close();
  await cleanup();
  rmSync(dataDir, { recursive: true, force: true });
}
