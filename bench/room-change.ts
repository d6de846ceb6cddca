/**
 * Does opening a room stall the realtime stream? (Issue 14, point 2.) The real app on a SQLite file
 * with `topics` organisation-wide topics and `clients` signed-in sockets, all in this process (the
 * stall measured is the server's; the clients' own work is the same in both figures).
 *
 * Reference: a post's fan-out on its own: from the POST until every socket has its `post.created`.
 * Measured: the same, for a post made right after an organisation-wide topic is created (which,
 * before the room registry learned everyone's rooms, made the hub ask every socket's rooms again).
 *
 * Run: sh scripts/node.sh node --experimental-strip-types --disable-warning=ExperimentalWarning \
 *        bench/room-change.ts [clients=5000] [topics=1000] [rounds=5]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config/index.ts';
import { createContext } from '../apps/server/src/context.ts';
import { migrateToLatest, openDatabase } from '../apps/server/src/db/index.ts';
import { newId } from '../apps/server/src/ids.ts';
import { sessionToken } from '../apps/server/src/test/session.ts';
import { serverVersion } from '../apps/server/src/version.ts';
import { insertBenchPeople } from './directory.ts';

const clients = Number(process.argv[2] ?? 5000);
const topics = Number(process.argv[3] ?? 1000);
const rounds = Number(process.argv[4] ?? 5);

const dataDir = mkdtempSync(path.join(tmpdir(), 'btalk-bench-'));
process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
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
const port = (app.server.address() as { port: number }).port;
const authorToken = await sessionToken({ ctx }, ids.at(-1)!);
const headers = {
  'content-type': 'application/json',
  'x-api-key': config.apiKey,
  authorization: `Bearer ${authorToken}`,
};
const api = async (method: string, url: string, body: object) => {
  const res = await fetch(`http://127.0.0.1:${port}/api${url}`, {
    method,
    headers,
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { data: { id: string } };
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
};
for (let i = 0; i < topics; i += 1)
  await api('POST', '/topics', { title: `Topic ${i}`, visibility: 'organisation' });
const probe = await api('POST', '/topics', { title: 'Probe', visibility: 'organisation' });

// Every client waits for the probe's posts; `arrived` counts them per post body.
const arrived = new Map<string, { count: number; done: () => void }>();
const sockets: WebSocket[] = [];
await Promise.all(
  ids.slice(0, clients).map(async (id) => {
    const token = await sessionToken({ ctx }, id);
    const socket = new WebSocket(`ws://127.0.0.1:${port}/api/realtime`);
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.on('open', () =>
        socket.send(JSON.stringify({ type: 'hello', token, apiKey: config.apiKey, lastSeq: null })),
      );
      socket.on('error', reject);
      socket.on('message', (data) => {
        const text = data.toString();
        if (text.startsWith('{"type":"ready"')) resolve();
        if (!text.includes('"post.created"')) return;
        const marker = /probe-\d+-\d+/.exec(text)?.[0];
        const waiting = marker ? arrived.get(marker) : undefined;
        if (waiting && ++waiting.count === clients) waiting.done();
      });
    });
  }),
);

/** Milliseconds from the POST until every socket has the post. */
async function fanOut(marker: string, before?: () => Promise<unknown>): Promise<number> {
  const all = new Promise<void>((done) => arrived.set(marker, { count: 0, done }));
  const started = performance.now();
  const creating = before?.();
  await api('POST', `/topics/${probe.id}/posts`, { clientId: newId(), body: marker });
  await all;
  await creating;
  return performance.now() - started;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const alone: number[] = [];
const withNewTopic: number[] = [];
for (let round = 0; round < rounds; round += 1) {
  alone.push(await fanOut(`probe-${round}-0`));
  withNewTopic.push(
    await fanOut(`probe-${round}-1`, () =>
      api('POST', '/topics', { title: `New ${round}`, visibility: 'organisation' }),
    ),
  );
}
const format = (values: number[]) =>
  `median ${median(values).toFixed(0)} ms, max ${Math.max(...values).toFixed(0)} ms`;
console.log(`${clients} sockets, ${topics} organisation-wide topics, ${rounds} rounds`);
console.log(`post fan-out alone (reference):               ${format(alone)}`);
console.log(`post fan-out with a new organisation topic:   ${format(withNewTopic)}`);
console.log(
  `delay added by the new topic (median):        ${(median(withNewTopic) - median(alone)).toFixed(0)} ms`,
);
for (const socket of sockets) socket.terminate();
await app.close();
await db.close();
