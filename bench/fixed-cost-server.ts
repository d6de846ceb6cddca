/**
 * The server side of bench/fixed-cost.ts: the real app (buildApp, BTALK_ENV=production, no logger)
 * on a throw-away SQLite folder, and a bare Fastify route per case answering the app's JSON, both
 * on 127.0.0.1 in this process. Seeds a topic page, Home's list and a search, then answers the
 * parent's messages: `cpu` (this process's CPU time so far, µs), `profile-start` / `profile-stop`
 * (a V8 CPU profile of what runs in between, written to a file) and `stop`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { buildApp } from '../apps/server/src/app.ts';
import { createContext } from '../apps/server/src/context.ts';
import { migrateToLatest, openDatabase } from '../apps/server/src/db/index.ts';
import { newId } from '../apps/server/src/ids.ts';
import { buildUser } from '../apps/server/src/test/factories.ts';
import { acceptCurrentTerms, sessionToken } from '../apps/server/src/test/session.ts';
import { serverVersion } from '../apps/server/src/version.ts';
import { productionBenchConfig } from './benchDb.ts';

/** One route measured: the app's URL, the bare route answering the same body, the headers to send. */
export interface FixedCostCase {
  name: string;
  url: string;
  bareUrl: string;
  headers: Record<string, string>;
}

/** The first message to the parent. */
export interface FixedCostReady {
  type: 'ready';
  cases: FixedCostCase[];
}

/** A message from the parent; every one is answered with `{ type: 'done', id, cpuUs? }`. */
export type FixedCostCommand =
  | { type: 'cpu'; id: number }
  | { type: 'profile-start'; id: number; intervalUs: number }
  | { type: 'profile-stop'; id: number; file: string }
  | { type: 'stop'; id: number };

/** The search of the seeded topic: a Thai word ("generator") in a few posts, as bench/pages.ts. */
const QUERY = 'เครื่องปั่นไฟ';
const POSTS = 60;
const OTHER_TOPICS = 10;

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'btalk-fixed-cost-'));
const db = openDatabase({ dataDir });
await migrateToLatest(db);
const config = productionBenchConfig(dataDir);
const ctx = createContext(config, db, serverVersion);
const app = await buildApp(ctx, { logger: false });
const bare = Fastify({ logger: false });

const kysely = db.kysely;
const author = await acceptCurrentTerms(kysely, await buildUser(kysely, { display_name: 'Bench Author' }));
const reader = await acceptCurrentTerms(kysely, await buildUser(kysely, { display_name: 'Bench Reader' }));
const headers = async (userId: string) => ({
  'x-api-key': config.apiKey,
  authorization: `Bearer ${await sessionToken({ ctx }, userId)}`,
});
const authorHeaders = await headers(author.id);
const readerHeaders = await headers(reader.id);
const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, as: object, payload?: object) => {
  const response = await app.inject({ method, url, headers: { ...as }, ...(payload ? { payload } : {}) });
  if (response.statusCode !== 200)
    throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return response;
};
const createTopic = async (title: string) =>
  (await call('POST', '/api/topics', authorHeaders, { title, visibility: 'organisation' })).json().data
    .id as string;
const writePost = async (topicId: string, body: string, as: object) =>
  (await call('POST', `/api/topics/${topicId}/posts`, as, { clientId: newId(), body })).json().data
    .id as string;

for (let t = 0; t < OTHER_TOPICS; t++) {
  const topicId = await createTopic(`หัวข้อ ${t} Benchmark`);
  await writePost(topicId, `โพสต์ in topic ${t}`, authorHeaders);
  await call('PUT', `/api/topics/${topicId}/follow`, readerHeaders, { following: true });
}
const topicId = await createTopic('Benchmark ประชุม');
await call('PUT', `/api/topics/${topicId}/follow`, readerHeaders, { following: true });
for (let i = 0; i < POSTS; i++) {
  const body =
    i % 15 === 0
      ? `ตรวจ${QUERY}ชั้นใต้ดิน post ${i} with **Markdown**`
      : `สวัสดีครับ post ${i} with **Markdown** @[Bench Reader](user:${reader.id})`;
  const postId = await writePost(topicId, body, i % 10 === 0 ? readerHeaders : authorHeaders);
  if (i % 3 === 0) {
    await call('POST', `/api/posts/${postId}/reactions`, readerHeaders, { clientId: newId(), emoji: '👍' });
  }
}
await call('PUT', `/api/topics/${topicId}/read`, readerHeaders, { lastReadNumber: POSTS / 2 });

const routes = [
  { name: 'GET /api/health', url: '/api/health' },
  { name: 'GET /api/me', url: '/api/me' },
  { name: 'topic page (30 posts)', url: `/api/topics/${topicId}/posts?limit=30` },
  { name: 'Home list (mine)', url: '/api/topics?scope=mine&limit=30' },
  { name: 'search (4 hits)', url: `/api/search?q=${encodeURIComponent(QUERY)}&limit=20` },
];
const bodies: string[] = [];
for (const route of routes) bodies.push((await call('GET', route.url, readerHeaders)).body);
routes.forEach((_route, i) => {
  bare.get(`/bare/${i}`, async (_request, reply) => reply.type('application/json').send(bodies[i]));
});
const base = await app.listen({ port: 0, host: '127.0.0.1' });
const bareBase = await bare.listen({ port: 0, host: '127.0.0.1' });

const cpuUs = () => {
  const used = process.cpuUsage();
  return used.user + used.system;
};
const session = new Session();
session.connect();

process.on('message', async (command: FixedCostCommand) => {
  if (command.type === 'profile-start') {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: command.intervalUs });
    await session.post('Profiler.start');
  } else if (command.type === 'profile-stop') {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(command.file, JSON.stringify(profile));
  } else if (command.type === 'stop') {
    session.disconnect();
    await bare.close();
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
    process.send!({ type: 'done', id: command.id });
    process.disconnect();
    return;
  }
  process.send!({ type: 'done', id: command.id, cpuUs: cpuUs() });
});

const ready: FixedCostReady = {
  type: 'ready',
  cases: routes.map((route, i) => ({
    name: route.name,
    url: `${base}${route.url}`,
    bareUrl: `${bareBase}/bare/${i}`,
    headers: readerHeaders,
  })),
};
process.send!(ready);
