/**
 * Does opening a room stall the realtime stream? (Issue 14, point 2.) The real app on a SQLite file
 * (bench/realtime-server.ts, a child process) with `topics` organisation-wide topics; this process
 * holds `clients` signed-in sockets and posts, so times are read on one clock, and the clients'
 * own work (which real clients do on their own devices) is not counted as the server's.
 *
 * Reference: a post's fan-out on its own: from the POST until every socket has its `post.created`.
 * Measured: the same, for a post made right after an organisation-wide topic is created (whose own
 * `topic.created` goes to every socket first).
 *
 * Run: sh scripts/node.sh sh -c 'ulimit -n 20000 && node --experimental-strip-types \
 *        --disable-warning=ExperimentalWarning bench/room-change.ts [clients=5000] [topics=1000] \
 *        [rounds=5] [--before=<checkout>] [--profile=<dir>]'
 * `--before` also measures that checkout's server (e.g. a `git worktree` of the last commit) in the
 * same run; `--profile` writes each server's `--cpu-prof` under that directory.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { newId } from '../apps/server/src/ids.ts';

const API_KEY = 'btalk-web-development-key';
const args = process.argv.slice(2);
const [clients = 5000, topics = 1000, rounds = 5] = args.filter((a) => /^\d+$/.test(a)).map(Number);
const BEFORE = args.find((a) => a.startsWith('--before='))?.slice(9);
const PROFILE = args.find((a) => a.startsWith('--profile='))?.slice(10);
const CONNECT_BATCH = 200;

type Mode = 'btalk' | 'before';

function startServer(
  mode: Mode,
): Promise<{ child: ChildProcess; port: number; tokens: string[]; postPath: string }> {
  const script =
    mode === 'before'
      ? `${BEFORE}/bench/realtime-server.ts`
      : new URL('./realtime-server.ts', import.meta.url);
  const profile = PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE}/room-change-${mode}-${clients}-${topics}`]
    : [];
  const child = fork(script, ['btalk', String(clients), String(topics)], {
    execArgv: ['--experimental-strip-types', '--disable-warning=ExperimentalWarning', ...profile],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${mode} server exited with ${code}`)));
    child.on('message', (m: { type: string; port: number; tokens: string[]; postPath: string }) => {
      if (m.type === 'ready') resolve({ child, ...m });
    });
  });
}

/** A server with its clients connected, warmed up: `round` measures one post alone and one with a new topic. */
async function open(mode: Mode) {
  const { child, port, tokens, postPath } = await startServer(mode);
  const headers = {
    'content-type': 'application/json',
    'x-api-key': API_KEY,
    authorization: `Bearer ${tokens[clients]}`,
  };
  const api = async (url: string, body: object) => {
    const res = await fetch(`http://127.0.0.1:${port}${url}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`POST ${url}: ${res.status} ${await res.text()}`);
  };

  // Every client waits for the probe posts; `arrived` counts them per post body.
  const arrived = new Map<string, { count: number; done: () => void }>();
  const sockets: WebSocket[] = [];
  const connect = (token: string) =>
    new Promise<WebSocket>((resolve, reject) => {
      const socket = new WebSocket(`ws://127.0.0.1:${port}/api/realtime`);
      socket.on('open', () =>
        socket.send(JSON.stringify({ type: 'hello', token, apiKey: API_KEY, lastSeq: null })),
      );
      socket.on('error', reject);
      socket.on('message', (data) => {
        const text = data.toString();
        if (text.startsWith('{"type":"ready"')) resolve(socket);
        if (!text.includes('"post.created"')) return;
        const marker = /probe-\d+-\d+/.exec(text)?.[0];
        const waiting = marker ? arrived.get(marker) : undefined;
        if (waiting && ++waiting.count === clients) waiting.done();
      });
    });
  for (let i = 0; i < clients; i += CONNECT_BATCH) {
    sockets.push(...(await Promise.all(tokens.slice(i, Math.min(i + CONNECT_BATCH, clients)).map(connect))));
  }

  /** Milliseconds from the POST until every socket has the post. */
  const fanOut = async (marker: string, before?: () => Promise<unknown>): Promise<number> => {
    const all = new Promise<void>((done) => arrived.set(marker, { count: 0, done }));
    const started = performance.now();
    const creating = before?.();
    await api(postPath, { clientId: newId(), body: marker });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`${mode}: ${marker} did not reach every socket in 30 s`)),
        30_000,
      );
    });
    await Promise.race([all, late]).finally(() => clearTimeout(timer));
    await creating;
    return performance.now() - started;
  };

  // Warm up (JIT, the keep-alive connections) before anything is measured.
  await fanOut('probe-99-0');
  await fanOut('probe-99-1', () => api('/api/topics', { title: 'Warm-up', visibility: 'organisation' }));
  const alone: number[] = [];
  const withNewTopic: number[] = [];
  const round = async (n: number) => {
    alone.push(await fanOut(`probe-${n}-0`));
    withNewTopic.push(
      await fanOut(`probe-${n}-1`, () =>
        api('/api/topics', { title: `New ${n}`, visibility: 'organisation' }),
      ),
    );
  };
  const close = async () => {
    for (const socket of sockets) socket.terminate();
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  };
  return { mode, alone, withNewTopic, round, close };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const format = (values: number[]) =>
  `${median(values).toFixed(0)} ms (max ${Math.max(...values).toFixed(0)})`;
console.log(`${clients} sockets, ${topics} organisation-wide topics, ${rounds} rounds`);
console.log(
  '| server | post fan-out alone (reference) | with a new organisation-wide topic | added delay (medians) |',
);
console.log('| --- | ---: | ---: | ---: |');
// Both servers up at once (10,000 sockets here), measured in turn each round, so that the shared
// machine's busy moments fall on both alike.
const servers = [];
for (const mode of BEFORE ? (['btalk', 'before'] as const) : (['btalk'] as const))
  servers.push(await open(mode));
for (let n = 0; n < rounds; n += 1) for (const server of servers) await server.round(n);
for (const r of servers) {
  await r.close();
  console.log(
    `| ${r.mode} | ${format(r.alone)} | ${format(r.withNewTopic)} | ${(median(r.withNewTopic) - median(r.alone)).toFixed(0)} ms |`,
  );
}
