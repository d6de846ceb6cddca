/**
 * The server side of bench/announcements.ts, run as a child process so that the clients' work does
 * not distort it. Builds the scene through the real app: a directory (bench/directory.ts) of an
 * admin at the top and `people` readers under them; the admin opens an organisation-wide topic,
 * writes a post and marks it important: all `people` are its audience. Answers the port, the ids and
 * the tokens over IPC.
 *
 * Arguments (JSON in argv[2]): { people, acknowledgers, sockets, postgres }.
 */
import { buildApp } from '../apps/server/src/app.ts';
import { insertInChunks } from '../apps/server/src/calltree/bulk.ts';
import { loadConfig } from '../apps/server/src/config/index.ts';
import { createContext } from '../apps/server/src/context.ts';
import { sessionToken } from '../apps/server/src/test/session.ts';
import { serverVersion } from '../apps/server/src/version.ts';
import { openServerBenchDatabase } from './benchDb.ts';
import { directory } from './directory.ts';

export interface AnnouncementBenchOptions {
  people: number;
  /** How many readers acknowledge (one each), spread over the directory. */
  acknowledgers: number;
  /** How many other readers have a socket open (they receive the post's progress too). */
  sockets: number;
  postgres: boolean;
}

export interface AnnouncementBenchReady {
  type: 'ready';
  port: number;
  apiKey: string;
  database: string;
  topicId: string;
  postId: string;
  audience: number;
  authorToken: string;
  /** The readers who acknowledge, in the order they do. */
  acknowledgers: string[];
  /** Readers who only watch (a socket each). */
  socketTokens: string[];
}

const options = JSON.parse(process.argv[2]!) as AnnouncementBenchOptions;

let running: Awaited<ReturnType<typeof buildApp>> | undefined;
const { db, dataDir, label } = await openServerBenchDatabase(options.postgres, () => running);
const config = loadConfig({ BTALK_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
const ctx = createContext(config, db, serverVersion);

// The author at the top, and `people` readers under them.
const people = directory(options.people + 1);
await insertInChunks(db.kysely, 'users', people);
const author = people[0]!;

const app = await buildApp(ctx, { logger: false });
running = app;
await app.listen({ port: 0, host: '127.0.0.1' });
const token = (id: string) => sessionToken({ ctx }, id);
const authorToken = await token(author.id);
const authorHeaders = { 'x-api-key': config.apiKey, authorization: `Bearer ${authorToken}` };
async function api(method: 'POST' | 'PUT', url: string, payload: object) {
  const res = await app.inject({ method, url: `/api${url}`, headers: authorHeaders, payload });
  if (res.statusCode !== 200)
    throw new Error(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
  return (res.json() as { data: Record<string, unknown> }).data;
}

const topic = (await api('POST', '/topics', { title: 'Everyone', visibility: 'organisation' })) as {
  id: string;
};
const post = (await api('POST', `/topics/${topic.id}/posts`, {
  clientId: 'bench-safety-notice',
  body: 'Safety notice: the fire doors on every floor are tested on Monday. Please acknowledge.',
})) as { id: string };
const marked = (await api('PUT', `/posts/${post.id}/announcement`, {})) as {
  announcement: { totals: { audience: number } };
};

// Acknowledgers: readers spread over the whole directory (not the author), each once.
const readers = people.slice(1);
if (options.acknowledgers > readers.length) throw new Error(`only ${readers.length} readers can acknowledge`);
const step = readers.length / Math.max(1, options.acknowledgers);
const acknowledgers = Array.from({ length: options.acknowledgers }, (_, i) => readers[Math.floor(i * step)]!);
const watching = readers.slice(0, options.sockets);

const ready: AnnouncementBenchReady = {
  type: 'ready',
  port: (app.server.address() as { port: number }).port,
  apiKey: config.apiKey,
  database: label,
  topicId: topic.id,
  postId: post.id,
  audience: marked.announcement.totals.audience,
  authorToken,
  acknowledgers: await Promise.all(acknowledgers.map((u) => token(u.id))),
  socketTokens: await Promise.all(watching.map((u) => token(u.id))),
};
process.send!(ready);
