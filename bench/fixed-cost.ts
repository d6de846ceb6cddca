/**
 * The API's fixed cost per request (issue 14, point 4): the server's CPU time per request of
 * `GET /api/health` (no auth, no database), `GET /api/me` (authenticated, one query), the topic page,
 * Home's list and a search, each next to a bare Fastify route answering the same JSON in the same
 * server process. The server (bench/fixed-cost-server.ts) runs in a child process, so autocannon's
 * own CPU is not counted; CPU time rather than req/s, which other work on a shared machine moves.
 * Each round measures every case, bare then app, with a fixed number of requests; the table gives
 * the median of the rounds.
 *
 * Run: `sh scripts/node.sh node --experimental-strip-types --disable-warning=ExperimentalWarning \
 *   bench/fixed-cost.ts [--requests=20000] [--rounds=3] [--connections=10] [--only=me] [--profile=DIR]`
 * `--connections=1` measures each request alone (no batching of several per turn of the event loop,
 * which lowers the cost per request on a busy machine). `--only` keeps the cases whose name contains the word; `--profile` writes a V8 CPU profile of the
 * app's requests per case (last round) to DIR and prints where the time went (self and total).
 */
import { fork } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import type { FixedCostCommand, FixedCostReady } from './fixed-cost-server.ts';

const args = process.argv.slice(2);
const option = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const REQUESTS = Number(option('requests') ?? 20_000);
const ROUNDS = Number(option('rounds') ?? 3);
const ONLY = option('only');
const PROFILE_DIR = option('profile');
const CONNECTIONS = Number(option('connections') ?? 10);
/** The profiler's sampling interval, µs. */
const SAMPLING_US = 50;

const child = fork(new URL('./fixed-cost-server.ts', import.meta.url), [], {
  execArgv: ['--experimental-strip-types', '--disable-warning=ExperimentalWarning'],
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const ready = await new Promise<FixedCostReady>((resolve, reject) => {
  child.once('exit', (code) => reject(new Error(`the server exited with ${code} before it was ready`)));
  child.once('message', (m: FixedCostReady) => resolve(m));
});
let nextId = 0;
/** A command without its id (Omit distributed over the union). */
type Command = FixedCostCommand extends infer C
  ? C extends FixedCostCommand
    ? Omit<C, 'id'>
    : never
  : never;

/** Sends a command to the server; resolves with its CPU time (µs) once it is done. */
function send(command: Command): Promise<number> {
  const id = nextId++;
  return new Promise((resolve) => {
    const listen = (m: { type: string; id: number; cpuUs?: number }) => {
      if (m.type !== 'done' || m.id !== id) return;
      child.off('message', listen);
      resolve(m.cpuUs ?? 0);
    };
    child.on('message', listen);
    child.send({ ...command, id } as FixedCostCommand);
  });
}

/** Server CPU µs per request of `amount` requests to `url`. */
async function measure(url: string, headers: Record<string, string>, amount: number): Promise<number> {
  const before = await send({ type: 'cpu' });
  const result = await autocannon({ url, headers, connections: CONNECTIONS, amount });
  const after = await send({ type: 'cpu' });
  const failed = result.errors + result.timeouts + result.non2xx;
  if (failed > 0) throw new Error(`${url}: ${failed} requests failed; the figures would mean nothing.`);
  return (after - before) / result.requests.sent;
}

interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }[];
  samples: number[];
}

/** Where a function lives: an npm package, a file of ours, or Node's internals. */
function placeOf(url: string): string {
  if (!url) return '(native)';
  const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (packageMatch) return packageMatch[1]!;
  if (url.startsWith('node:')) return url;
  const src = /\/(apps|packages)\/(.*)$/.exec(url);
  return src ? `${src[1]}/${src[2]}` : url;
}

/** Prints the top functions by self time and by total time (the stack above them), and self time by place. */
function summarise(file: string, top = 25): void {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const parent = new Map<number, number>();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (id: number) => {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    return `${functionName || '(anonymous)'} ${placeOf(url)}${url ? `:${lineNumber + 1}` : ''}`;
  };
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const places = new Map<string, number>();
  let counted = 0;
  for (const sample of profile.samples) {
    const name = byId.get(sample)!.callFrame.functionName;
    if (name === '(idle)' || name === '(program)') continue;
    counted++;
    const own = label(sample);
    self.set(own, (self.get(own) ?? 0) + 1);
    const place = placeOf(byId.get(sample)!.callFrame.url);
    places.set(place, (places.get(place) ?? 0) + 1);
    const seen = new Set<string>();
    for (let id: number | undefined = sample; id !== undefined; id = parent.get(id)) seen.add(label(id));
    for (const s of seen) total.set(s, (total.get(s) ?? 0) + 1);
  }
  const pct = (n: number) => `${((100 * n) / counted).toFixed(1).padStart(5)} %`;
  const print = (title: string, map: Map<string, number>, n: number) => {
    console.log(`  ${title}`);
    for (const [k, v] of [...map].sort((a, b) => b[1] - a[1]).slice(0, n)) console.log(`    ${pct(v)}  ${k}`);
  };
  console.log(`\n${file}: ${counted} busy samples (idle and "(program)" left out)`);
  print('self time by place', places, 15);
  print('self time by function', self, top);
  print('total time by function', total, top + 15);
}

const cases = ready.cases.filter((c) => !ONLY || c.name.includes(ONLY));
if (PROFILE_DIR) mkdirSync(PROFILE_DIR, { recursive: true });
const results = new Map<string, { app: number[]; bare: number[] }>(
  cases.map((c) => [c.name, { app: [], bare: [] }]),
);
try {
  for (let round = 1; round <= ROUNDS; round++) {
    for (const c of cases) {
      // Warm both up (JIT, statement caches) before each measure.
      await measure(c.bareUrl, c.headers, 2000);
      await measure(c.url, c.headers, 2000);
      const bare = await measure(c.bareUrl, c.headers, REQUESTS);
      const profile = PROFILE_DIR && round === ROUNDS;
      if (profile) await send({ type: 'profile-start', intervalUs: SAMPLING_US });
      const app = await measure(c.url, c.headers, REQUESTS);
      const file = path.resolve(PROFILE_DIR ?? '.', `${c.name.replace(/\W+/g, '-')}.cpuprofile`);
      if (profile) await send({ type: 'profile-stop', file });
      results.get(c.name)!.app.push(app);
      results.get(c.name)!.bare.push(bare);
      console.error(`round ${round}, ${c.name}: app ${Math.round(app)} µs, bare ${Math.round(bare)} µs`);
      if (profile) summarise(file);
    }
  }
} finally {
  await send({ type: 'stop' });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
console.log('\n| route | app CPU µs/req | bare CPU µs/req | app − bare µs | app ÷ bare |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const [name, r] of results) {
  const app = median(r.app);
  const bare = median(r.bare);
  console.log(
    `| ${name} | ${Math.round(app)} | ${Math.round(bare)} | ${Math.round(app - bare)} | ${(app / bare).toFixed(2)}x |`,
  );
}
console.log(
  `\nServer CPU per request (median of ${ROUNDS} rounds of ${REQUESTS} requests, ${CONNECTIONS} connections), SQLite, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}${PROFILE_DIR ? ', under the profiler (last round)' : ''}.`,
);
