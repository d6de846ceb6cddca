/**
 * Realtime fan-out benchmark (issue 7): N clients on one topic, one sender posting at a rising rate
 * through the HTTP API, measured on one clock (clients and sender live in this process; the server
 * is a child process). The same harness then drives a bare `ws` broadcast server.
 *
 *   sh bench/realtime.sh                 # 1,000 and 5,000 clients, both servers
 *   sh bench/realtime.sh 1000 --rates=10,20
 */
import { type ChildProcess, fork } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';

const API_KEY = 'btalk-web-development-key';
const args = process.argv.slice(2);
const sizes = args.filter((a) => /^\d+$/.test(a)).map(Number);
const rates = (args.find((a) => a.startsWith('--rates='))?.slice(8) ?? '5,10,20,50,100')
  .split(',')
  .map(Number);
const STAGE_MS = Number(args.find((a) => a.startsWith('--stage-ms='))?.slice(11) ?? 3000);
const DRAIN_MS = 20_000;
const CONNECT_BATCH = 200;

type Mode = 'btalk' | 'bare';
interface Ready {
  port: number;
  tokens: string[];
  /** Where the sender posts: the topic's posts on BTalk, `/post` on the bare server. */
  postPath: string;
}
interface Stage {
  rate: number;
  posts: number;
  deliveries: number;
  lost: number;
  p50: number;
  p99: number;
  max: number;
  deliveriesPerSecond: number;
}

const clock = () => performance.timeOrigin + performance.now();

function startServer(mode: Mode, clients: number): Promise<{ child: ChildProcess; ready: Ready }> {
  const child = fork(new URL('./realtime-server.ts', import.meta.url), [mode, String(clients)], {
    execArgv: ['--experimental-strip-types', '--disable-warning=ExperimentalWarning', '--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${mode} server exited with ${code}`)));
    child.on('message', (m: { type: string } & Ready) => {
      if (m.type === 'ready') resolve({ child, ready: m });
    });
  });
}

function serverMemory(child: ChildProcess): Promise<NodeJS.MemoryUsage> {
  return new Promise((resolve) => {
    const onMessage = (m: { type: string; usage: NodeJS.MemoryUsage }) => {
      if (m.type !== 'memory') return;
      child.off('message', onMessage);
      resolve(m.usage);
    };
    child.on('message', onMessage);
    child.send({ type: 'memory' });
  });
}

/** Latencies per post id, filled by every client's message handler. */
class Deliveries {
  latencies: number[] = [];
  count = 0;
  lastAt = 0;
  record(sentAt: number): void {
    const at = clock();
    this.latencies.push(at - sentAt);
    this.count += 1;
    this.lastAt = at;
  }
}

async function connect(mode: Mode, port: number, token: string | undefined, sink: { current: Deliveries }) {
  const socket = new WebSocket(`ws://127.0.0.1:${port}${mode === 'bare' ? '/' : '/api/realtime'}`);
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.on('message', (data) => {
      const m = JSON.parse(data.toString()) as {
        type: string;
        name?: string;
        payload?: { body?: string; post?: { body: string } };
      };
      // A post's body is `bench <sentAt> #<id>`: BTalk sends the post, the bare server the body.
      if (m.type === 'event' && m.name === 'post.created') {
        sink.current.record(Number((m.payload?.post?.body ?? m.payload?.body ?? '').split(' ')[1]));
      } else if (m.type === 'ready') resolve();
    });
    socket.once('open', () => {
      if (mode === 'bare') resolve();
      else socket.send(JSON.stringify({ type: 'hello', token, apiKey: API_KEY, lastSeq: null }));
    });
  });
  return socket;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function run(mode: Mode, clients: number) {
  const { child, ready } = await startServer(mode, clients);
  const before = await serverMemory(child);
  const sink = { current: new Deliveries() };
  const sockets: WebSocket[] = [];
  for (let i = 0; i < clients; i += CONNECT_BATCH) {
    const batch = Array.from({ length: Math.min(CONNECT_BATCH, clients - i) }, (_, j) =>
      connect(mode, ready.port, ready.tokens[i + j], sink),
    );
    sockets.push(...(await Promise.all(batch)));
  }
  const after = await serverMemory(child);
  const memory = {
    rssPerConnectionKiB: (after.rss - before.rss) / clients / 1024,
    heapPerConnectionKiB: (after.heapUsed - before.heapUsed) / clients / 1024,
  };
  const url = `http://127.0.0.1:${ready.port}${ready.postPath}`;
  const post = (n: number) => JSON.stringify({ clientId: `bench-post-${n}`, body: `bench ${clock()} #${n}` });
  const headers = {
    'content-type': 'application/json',
    'x-api-key': API_KEY,
    authorization: `Bearer ${ready.tokens[clients] ?? ''}`,
  };
  const stages: Stage[] = [];
  let id = 0;
  // Warm up (JIT, the sender's keep-alive connection) before anything is measured.
  sink.current = new Deliveries();
  for (let n = 0; n < 5; n++) {
    id += 1;
    const r = await fetch(url, { method: 'POST', headers, body: post(id) });
    if (!r.ok) throw new Error(`warm-up post failed: HTTP ${r.status} ${await r.text()}`);
  }
  while (sink.current.count < 5 * clients) await new Promise((r) => setTimeout(r, 20));
  for (const rate of rates) {
    const deliveries = new Deliveries();
    sink.current = deliveries;
    const posts = Math.round((rate * STAGE_MS) / 1000);
    const started = clock();
    const sends: Promise<unknown>[] = [];
    for (let n = 0; n < posts; n++) {
      const due = started + (n * 1000) / rate;
      const wait = due - clock();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      id += 1;
      sends.push(
        fetch(url, { method: 'POST', headers, body: post(id) }).then(async (r) => {
          if (!r.ok) throw new Error(`post failed: HTTP ${r.status} ${await r.text()}`);
        }),
      );
    }
    await Promise.all(sends);
    const expected = posts * clients;
    const deadline = clock() + DRAIN_MS;
    while (deliveries.count < expected && clock() < deadline) await new Promise((r) => setTimeout(r, 20));
    const sorted = deliveries.latencies.sort((a, b) => a - b);
    const stage: Stage = {
      rate,
      posts,
      deliveries: deliveries.count,
      lost: expected - deliveries.count,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted.at(-1) ?? Number.NaN,
      deliveriesPerSecond: deliveries.count / ((deliveries.lastAt - started) / 1000),
    };
    stages.push(stage);
    console.log(
      `${mode.padEnd(5)} ${String(clients).padStart(5)} clients ${String(rate).padStart(4)} posts/s: ` +
        `p50 ${stage.p50.toFixed(1)} ms, p99 ${stage.p99.toFixed(1)} ms, max ${stage.max.toFixed(0)} ms, ` +
        `${Math.round(stage.deliveriesPerSecond)} deliveries/s, lost ${stage.lost}`,
    );
    // Past two seconds at p99 the rate is beyond what this machine sustains: stop rising.
    if (stage.p99 > 2000 || stage.lost > 0) break;
  }
  for (const socket of sockets) socket.terminate();
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  return { mode, clients, memory, stages };
}

const results = [];
for (const clients of sizes.length > 0 ? sizes : [1000, 5000]) {
  for (const mode of ['btalk', 'bare'] as const) {
    const result = await run(mode, clients);
    console.log(
      `${mode.padEnd(5)} ${String(clients).padStart(5)} clients: server memory per connection ` +
        `${result.memory.rssPerConnectionKiB.toFixed(1)} KiB RSS, ${result.memory.heapPerConnectionKiB.toFixed(1)} KiB heap`,
    );
    results.push(result);
  }
}

console.log(
  '\n| clients | posts/s | BTalk p50 / p99 (ms) | BTalk deliveries/s | bare p50 / p99 (ms) | bare deliveries/s | ratio | lost (BTalk/bare) |',
);
console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const clients of [...new Set(results.map((r) => r.clients))]) {
  const ours = results.find((r) => r.clients === clients && r.mode === 'btalk')!;
  const bare = results.find((r) => r.clients === clients && r.mode === 'bare')!;
  for (const stage of ours.stages) {
    const b = bare.stages.find((s) => s.rate === stage.rate);
    const ratio = b ? (stage.deliveriesPerSecond / b.deliveriesPerSecond).toFixed(2) : 'n/a';
    console.log(
      `| ${clients} | ${stage.rate} | ${stage.p50.toFixed(1)} / ${stage.p99.toFixed(1)} | ${Math.round(stage.deliveriesPerSecond)} | ` +
        `${b ? `${b.p50.toFixed(1)} / ${b.p99.toFixed(1)}` : 'n/a'} | ${b ? Math.round(b.deliveriesPerSecond) : 'n/a'} | ${ratio} | ${stage.lost} / ${b?.lost ?? 'n/a'} |`,
    );
  }
  console.log(
    `memory per connection at ${clients}: BTalk ${ours.memory.rssPerConnectionKiB.toFixed(1)} KiB RSS (${ours.memory.heapPerConnectionKiB.toFixed(1)} KiB heap), ` +
      `bare ${bare.memory.rssPerConnectionKiB.toFixed(1)} KiB RSS (${bare.memory.heapPerConnectionKiB.toFixed(1)} KiB heap)`,
  );
}
