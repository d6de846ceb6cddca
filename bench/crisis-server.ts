/**
 * The server side of bench/crisis.ts, run as a child process so that the clients' work does not
 * distort it. Builds the scene through the real app: a directory of `people` (bench/directory.ts),
 * a call tree over all of them, `managers` of them given the tree's event manager role, a crisis
 * team of `crisis` admins outside the tree, `others` people outside the tree, and a probe author who
 * opens an organisation-wide topic; then starts an event over the whole tree. Answers the port, the
 * ids and the tokens over IPC.
 *
 * Arguments (JSON in argv[2]): { people, managers, crisis, others, answerers, postgres }.
 */
import { buildApp } from '../apps/server/src/app.ts';
import { insertInChunks } from '../apps/server/src/calltree/bulk.ts';
import { createContext } from '../apps/server/src/context.ts';
import type { NewUserRow } from '../apps/server/src/db/schema.ts';
import { newId, now } from '../apps/server/src/ids.ts';
import { sessionToken } from '../apps/server/src/test/session.ts';
import { serverVersion } from '../apps/server/src/version.ts';
import { openServerBenchDatabase, productionBenchConfig } from './benchDb.ts';
import { directory } from './directory.ts';

export interface CrisisOptions {
  people: number;
  managers: number;
  crisis: number;
  others: number;
  /** How many distinct targets answer (one answer each). */
  answerers: number;
  postgres: boolean;
}

export interface CrisisReady {
  type: 'ready';
  port: number;
  apiKey: string;
  database: string;
  eventId: string;
  topicId: string;
  /** Tokens of the watchers: the tree's event managers, then the crisis team. */
  watcherTokens: string[];
  otherTokens: string[];
  probeToken: string;
  /** The answerers, in the order they answer. */
  answerers: { id: string; token: string }[];
}

const options = JSON.parse(process.argv[2]!) as CrisisOptions;

/** People outside the tree (no manager, nobody reports to them). */
function outsiders(count: number, prefix: string, role: 'admin' | 'member'): NewUserRow[] {
  const at = now();
  return Array.from({ length: count }, (_, i) => ({
    id: newId(),
    issuer: 'https://bench.directory',
    subject: `${prefix}${i}`,
    tenant_id: null,
    email: `${prefix}${i}@bench.test`,
    display_name: `${prefix} ${i}`,
    department: 'Operations',
    job_title: 'Staff',
    manager_subject: null,
    phone: null,
    locale: 'en' as const,
    role,
    tokens_valid_after: null,
    terms_accepted_version: 1,
    created_at: at,
    updated_at: at,
  }));
}

let running: Awaited<ReturnType<typeof buildApp>> | undefined;
const { db, dataDir, label } = await openServerBenchDatabase(options.postgres, () => running);
// Production, as deployed; the probe author posts every second for the whole run, past a person's
// write limit, so the limit is raised (each answerer writes once anyway).
const config = productionBenchConfig(dataDir);
const ctx = createContext(config, db, serverVersion);

const people = directory(options.people);
const crisis = outsiders(options.crisis, 'crisis', 'admin');
const others = outsiders(options.others, 'other', 'member');
const [probeAuthor] = outsiders(1, 'probe', 'member');
for (const rows of [people, crisis, others, [probeAuthor!]]) await insertInChunks(db.kysely, 'users', rows);

const app = await buildApp(ctx, { logger: false });
running = app;
// The answers' time inside the server (request read to response written), to tell the server's
// share of an answer's latency from the clients' and the network's.
const answerTimes: number[] = [];
app.addHook('onResponse', (request, reply, done) => {
  if (request.method === 'POST' && request.url.endsWith('/answers')) answerTimes.push(reply.elapsedTime);
  done();
});
process.on('message', (message) => {
  if (message === 'answer-times') process.send!({ answerTimes });
});
await app.listen({ port: 0, host: '127.0.0.1' });
const token = (id: string) => sessionToken({ ctx }, id);
const rootHeaders = { 'x-api-key': config.apiKey, authorization: `Bearer ${await token(people[0]!.id)}` };
async function api(headers: Record<string, string>, method: 'POST' | 'PUT', url: string, payload?: object) {
  const res = await app.inject({ method, url: `/api${url}`, headers, ...(payload ? { payload } : {}) });
  if (res.statusCode !== 200)
    throw new Error(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
  return (res.json() as { data: Record<string, unknown> }).data;
}

const tree = (await api(rootHeaders, 'POST', '/calltree/trees', {
  name: 'Everyone',
  rootUserId: people[0]!.id,
})) as { tree: { id: string } };
// The managers who watch: the people right under the top (p1, p2, ...), given the event manager role.
const managers = people.slice(1, 1 + options.managers);
for (const m of managers)
  await api(rootHeaders, 'PUT', `/calltree/trees/${tree.tree.id}/event-managers/${m.id}`);
const topic = (await api(
  { 'x-api-key': config.apiKey, authorization: `Bearer ${await token(probeAuthor!.id)}` },
  'POST',
  '/topics',
  { title: 'Probe', visibility: 'organisation' },
)) as { id: string };
const event = (await api(rootHeaders, 'POST', `/calltree/trees/${tree.tree.id}/events`, {
  title: 'Crisis bench',
  message: 'Are you safe?',
  kind: 'real',
})) as { id: string; totals: { total: number } };
if (event.totals.total !== options.people) throw new Error('the event does not target everyone');

// Answerers: targets spread over the whole directory, each answering once for themselves (the
// managers who watch are targets too, and answer when their turn comes).
if (options.answerers > people.length) throw new Error(`only ${people.length} targets can answer`);
const step = people.length / options.answerers;
const answererRows = Array.from({ length: options.answerers }, (_, i) => people[Math.floor(i * step)]!);

const ready: CrisisReady = {
  type: 'ready',
  port: (app.server.address() as { port: number }).port,
  apiKey: config.apiKey,
  database: label,
  eventId: event.id,
  topicId: topic.id,
  watcherTokens: await Promise.all([...managers, ...crisis].map((u) => token(u.id))),
  otherTokens: await Promise.all(others.map((u) => token(u.id))),
  probeToken: await token(probeAuthor!.id),
  answerers: await Promise.all(answererRows.map(async (u) => ({ id: u.id, token: await token(u.id) }))),
};
process.send!(ready);
