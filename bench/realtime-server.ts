/**
 * The server side of bench/realtime.ts, run as a child process so that its memory and CPU are its
 * own. `btalk`: the real app on a SQLite file (the embedded default) with one organisation-wide
 * topic; the sender posts through the real topics API (POST /api/topics/:id/posts), so each post
 * goes through authenticate, the terms gate, validation, the post command, the event log and the
 * fan-out. `bare`: a plain `ws` server that broadcasts each POSTed body to every socket, in a
 * message of the same shape and size as BTalk's `post.created` (so that both cost the clients, all
 * in one harness process, the same to read).
 * Arguments: `btalk|bare <clients> [topics]`, `topics` more organisation-wide topics (for
 * bench/room-change.ts, which uses this server too).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { WebSocketServer } from 'ws';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config/index.ts';
import { createContext } from '../apps/server/src/context.ts';
import { migrateToLatest, openDatabase } from '../apps/server/src/db/index.ts';
import { newId } from '../apps/server/src/ids.ts';
import { sessionToken } from '../apps/server/src/test/session.ts';
import { serverVersion } from '../apps/server/src/version.ts';
import { insertBenchPeople } from './directory.ts';

type Reply = { port: number; tokens: string[]; postPath: string };

const mode = process.argv[2] as 'btalk' | 'bare';
const clients = Number(process.argv[3]);
/** Organisation-wide topics besides the one posted to (bench/room-change.ts). */
const topics = Number(process.argv[4] ?? 0);

function report(message: object): void {
  process.send!(message);
}

// A normal exit on SIGTERM, so that `--cpu-prof` writes its profile.
process.on('SIGTERM', () => process.exit(0));

process.on('message', (message: { type: string }) => {
  if (message.type === 'memory') {
    (globalThis as { gc?: () => void }).gc?.();
    report({ type: 'memory', usage: process.memoryUsage() });
  }
});

async function bare(): Promise<Reply> {
  const server = createServer();
  const wss = new WebSocketServer({ server });
  let seq = 0;
  const topicId = newId();
  const author = { id: newId(), displayName: 'Bench 1', email: 'bench1@bench.test', department: null };
  server.on('request', (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const { clientId, body } = JSON.parse(Buffer.concat(chunks).toString());
      seq += 1;
      const createdAt = new Date().toISOString();
      const post = {
        id: newId(),
        clientId,
        topicId,
        number: seq,
        author,
        body,
        mentions: [],
        attachments: [],
        reactions: [],
        commentCount: 0,
        pinnedAt: null,
        editedAt: null,
        deletedAt: null,
        createdAt,
      };
      const room = `topic:${topicId}`;
      const message = { type: 'event', seq, room, name: 'post.created', payload: { post } };
      const text = JSON.stringify({ ...message, actorId: author.id, createdAt });
      for (const socket of wss.clients) socket.send(text);
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ code: 0, data: { seq } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, tokens: [], postPath: '/post' };
}

async function btalk(): Promise<Reply> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'btalk-bench-'));
  process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  // One author posts at the benchmark's rates: far past a person's write limit.
  const config = loadConfig({
    BTALK_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WRITE_RATE_LIMIT_PER_MINUTE: '1000000',
  });
  const db = openDatabase({ dataDir });
  await migrateToLatest(db);
  const ctx = createContext(config, db, serverVersion);
  const ids = Array.from({ length: clients + 1 }, () => newId());
  await insertBenchPeople(db.kysely, ids);
  const app = await buildApp(ctx, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const tokens = await Promise.all(ids.map((id) => sessionToken({ ctx }, id)));
  // The sender (the last person) opens the organisation-wide topic that every client follows.
  const created = await app.inject({
    method: 'POST',
    url: '/api/topics',
    headers: { 'x-api-key': config.apiKey, authorization: `Bearer ${tokens.at(-1)}` },
    payload: { title: 'Benchmark', visibility: 'organisation' },
  });
  const topicId = (created.json() as { data: { id: string } }).data.id;
  for (let i = 0; i < topics; i += 1) {
    await app.inject({
      method: 'POST',
      url: '/api/topics',
      headers: { 'x-api-key': config.apiKey, authorization: `Bearer ${tokens.at(-1)}` },
      payload: { title: `Topic ${i}`, visibility: 'organisation' },
    });
  }
  return {
    port: (app.server.address() as { port: number }).port,
    tokens,
    postPath: `/api/topics/${topicId}/posts`,
  };
}

const reply = mode === 'bare' ? await bare() : await btalk();
report({ type: 'ready', ...reply });
