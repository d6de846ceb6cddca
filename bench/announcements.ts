/**
 * Announcements at scale (issue 17, point 5): an important post in an organisation-wide topic whose
 * audience is `people` readers. The author's roll-up (the report screen's two requests: the report
 * with its departments and manager branches, and the first page of those who have not acknowledged)
 * is loaded `loads` times before and after the acknowledgements; then `rate` readers a second
 * acknowledge through the real API for `seconds` seconds while the author's socket (and `sockets`
 * other readers' sockets) are open.
 *
 * Figures: the roll-up's load time (both requests in parallel, as the screen sends them), p50/p99;
 * acknowledgement latency (send to HTTP 200); how long after an acknowledgement's 200 the author's
 * open roll-up shows it: the counts (the first `announcement.progress` on the author's socket whose
 * acknowledged count includes it; one that came before the 200 counts as 0) and the whole report
 * (fetched again as the web app does, 300 ms after a burst of progress). The server is a child
 * process (bench/announcements-server.ts); the clients live in this process and measure on one clock.
 *
 *   ulimit -n 65536; sh scripts/node.sh node --experimental-strip-types \
 *     --disable-warning=ExperimentalWarning bench/announcements.ts [--people=10000] [--rate=100] \
 *     [--seconds=30] [--sockets=2000] [--loads=20] [--postgres]
 */
import { type ChildProcess, fork } from 'node:child_process';
import type WebSocket from 'ws';
import type { AnnouncementBenchOptions, AnnouncementBenchReady } from './announcements-server.ts';
import { clock, connectAllRealtime, connectRealtime, line, numberArg, sleep, summary } from './measure.ts';

const args = process.argv.slice(2);
const PEOPLE = numberArg(args, 'people', 10_000);
const RATE = numberArg(args, 'rate', 100);
const SECONDS = numberArg(args, 'seconds', 30);
const SOCKETS = numberArg(args, 'sockets', 2000);
const LOADS = numberArg(args, 'loads', 20);
const POSTGRES = args.includes('--postgres');
/** As the web app's report screen (apps/web/src/api/announcementCache.ts, REPORT_REFRESH_DELAY_MS). */
const REPORT_REFRESH_DELAY_MS = 300;
/** How long after the last acknowledgement the author's roll-up may take before one counts as missing. */
const DRAIN_MS = 10_000;

interface Totals {
  audience: number;
  seen: number;
  acknowledged: number;
  notYet: number;
}

function startServer(): Promise<{ child: ChildProcess; ready: AnnouncementBenchReady }> {
  const options: AnnouncementBenchOptions = {
    people: PEOPLE,
    acknowledgers: RATE * SECONDS,
    sockets: SOCKETS,
    postgres: POSTGRES,
  };
  const child = fork(new URL('./announcements-server.ts', import.meta.url), [JSON.stringify(options)], {
    execArgv: ['--experimental-strip-types', '--disable-warning=ExperimentalWarning'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the server exited with ${code} before it was ready`)));
    child.on('message', (m: AnnouncementBenchReady) => {
      if (m.type === 'ready') resolve({ child, ready: m });
    });
  });
}

const started = clock();
const { child, ready } = await startServer();
// However this run ends, the server ends with it.
process.once('exit', () => child.kill('SIGTERM'));
console.log(
  `${ready.database}: an important post to ${ready.audience} readers; ${RATE} acknowledgements/s for ` +
    `${SECONDS} s; ${SOCKETS} readers' sockets open besides the author's; set up in ` +
    `${((clock() - started) / 1000).toFixed(0)} s`,
);
if (ready.audience !== PEOPLE) throw new Error(`the audience is ${ready.audience}, not ${PEOPLE}`);

const base = `http://127.0.0.1:${ready.port}/api`;
async function call<T>(token: string, method: 'GET' | 'POST', url: string, body?: object): Promise<T> {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(body ? { 'content-type': 'application/json' } : {}),
      'x-api-key': ready.apiKey,
      authorization: `Bearer ${token}`,
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: HTTP ${res.status} ${text.slice(0, 200)}`);
  return (JSON.parse(text) as { data: T }).data;
}

const reportUrl = `/posts/${ready.postId}/announcement/report`;
const peopleUrl = `/posts/${ready.postId}/announcement/people?status=pending&limit=100`;
const report = () =>
  call<{ totals: Totals; departments: unknown[]; branches: unknown[] }>(ready.authorToken, 'GET', reportUrl);

/** The report screen's first load: the report and the first page of people, in parallel. */
async function loadRollup(): Promise<{
  ms: number;
  reportMs: number;
  branches: number;
  acknowledged: number;
}> {
  const from = clock();
  let reportMs = 0;
  const [r] = await Promise.all([
    report().then((value) => {
      reportMs = clock() - from;
      return value;
    }),
    call<{ items: unknown[] }>(ready.authorToken, 'GET', peopleUrl),
  ]);
  return { ms: clock() - from, reportMs, branches: r.branches.length, acknowledged: r.totals.acknowledged };
}

async function loadRollups(label: string) {
  await loadRollup(); // warm-up: JIT, prepared statements, keep-alive connections
  const times: number[] = [];
  const reportTimes: number[] = [];
  let last = { branches: 0, acknowledged: 0 };
  for (let i = 0; i < LOADS; i++) {
    const load = await loadRollup();
    times.push(load.ms);
    reportTimes.push(load.reportMs);
    last = load;
  }
  console.log(
    `roll-up load, ${label} (${last.acknowledged} acknowledged, ${last.branches} branches): ` +
      `screen ${line(summary(times))}; report alone ${line(summary(reportTimes))}`,
  );
  return summary(times);
}

// The author's socket: every progress of the post, and the report fetched again after a burst.
const progress: { at: number; acknowledged: number }[] = [];
const reports: { at: number; acknowledged: number }[] = [];
const refetchTimes: number[] = [];
let refetchTimer: ReturnType<typeof setTimeout> | null = null;
const refetching = new Set<Promise<void>>();
function refetchSoon() {
  if (refetchTimer) return;
  refetchTimer = setTimeout(() => {
    refetchTimer = null;
    const from = clock();
    const done = report().then(
      (r) => {
        const at = clock();
        refetchTimes.push(at - from);
        reports.push({ at, acknowledged: r.totals.acknowledged });
      },
      (error: Error) => console.log(`  a report refetch failed: ${error.message}`),
    );
    refetching.add(done);
    void done.finally(() => refetching.delete(done));
  }, REPORT_REFRESH_DELAY_MS);
}
const authorSocket = await connectRealtime(ready.port, ready.apiKey, ready.authorToken, (text, at) => {
  if (!text.includes('"announcement.progress"')) return;
  const { payload } = JSON.parse(text) as { payload: { postId: string; totals: Totals } };
  if (payload.postId !== ready.postId) return;
  progress.push({ at, acknowledged: payload.totals.acknowledged });
  refetchSoon();
});
let readerProgress = 0;
const sockets: WebSocket[] = [
  authorSocket,
  ...(await connectAllRealtime(ready.port, ready.apiKey, ready.socketTokens, (text) => {
    if (text.includes('"announcement.progress"')) readerProgress += 1;
  })),
];

const before = await loadRollups('before');

// The acknowledgements: RATE a second, each reader once, scheduled whether or not earlier ones are back.
const acks: { sentAt: number; ackedAt: number; acknowledged: number }[] = [];
const latencies: number[] = [];
const failures: string[] = [];
const from = clock();
const sends: Promise<void>[] = [];
for (let n = 0; n < ready.acknowledgers.length; n++) {
  const wait = from + (n * 1000) / RATE - clock();
  if (wait > 0) await sleep(wait);
  const sentAt = clock();
  sends.push(
    call<{ totals: Totals }>(
      ready.acknowledgers[n]!,
      'POST',
      `/posts/${ready.postId}/acknowledgement`,
      {},
    ).then(
      (result) => {
        const ackedAt = clock();
        latencies.push(ackedAt - sentAt);
        acks.push({ sentAt, ackedAt, acknowledged: result.totals.acknowledged });
      },
      (error: Error) => {
        failures.push(error.message);
      },
    ),
  );
}
const sendingMs = clock() - from;
await Promise.all(sends);
const total = acks.length;
const deadline = clock() + DRAIN_MS;
const latest = (list: { acknowledged: number }[]) => list.reduce((m, x) => Math.max(m, x.acknowledged), 0);
while (clock() < deadline && (latest(progress) < total || latest(reports) < total)) await sleep(50);
await sleep(REPORT_REFRESH_DELAY_MS * 2);
await Promise.all(refetching);

/** For each acknowledgement, from its 200 to the first entry of `seen` that counts it (0 when it came first). */
function reflection(seen: { at: number; acknowledged: number }[]) {
  const delays: number[] = [];
  let before200 = 0;
  let missing = 0;
  for (const ack of acks) {
    const first = seen.find((s) => s.acknowledged >= ack.acknowledged);
    if (!first) {
      missing += 1;
      continue;
    }
    if (first.at < ack.ackedAt) before200 += 1;
    delays.push(Math.max(0, first.at - ack.ackedAt));
  }
  return { summary: summary(delays), before200, missing };
}
const counts = reflection(progress);
const whole = reflection(reports);
const after = await loadRollups('after');

console.log(
  `acknowledgements answered / sent: ${total} / ${ready.acknowledgers.length} (sending took ${(sendingMs / 1000).toFixed(1)} s)`,
);
if (failures.length > 0) console.log(`  first failures: ${failures.slice(0, 3).join(' | ')}`);
console.log(`acknowledgement latency (send to 200):         ${line(summary(latencies))}`);
console.log(
  `author's counts show it (200 to progress):     ${line(counts.summary)}; ${counts.before200} before the 200, ${counts.missing} missing; ${progress.length} progress events`,
);
console.log(
  `author's report shows it (200 to refetched):   ${line(whole.summary)}; ${whole.missing} missing; ${reports.length} refetches, each ${line(summary(refetchTimes))}`,
);
console.log(`progress events received by the ${SOCKETS} readers' sockets: ${readerProgress}`);
const slowest = Math.max(before.p99, after.p99);
console.log(
  `bars (issue 17): roll-up loads < 1 s ${slowest < 1000 ? 'yes' : 'NO'} (p99 ${slowest.toFixed(0)} ms); ` +
    `an acknowledgement reaches the open roll-up < 1 s ${counts.summary.p99 < 1000 && counts.missing === 0 ? 'yes' : 'NO'} ` +
    `(counts p99 ${counts.summary.p99.toFixed(0)} ms, whole report p99 ${whole.summary.p99.toFixed(0)} ms)`,
);

for (const socket of sockets) socket.terminate();
child.removeAllListeners('exit');
child.kill('SIGTERM');
await new Promise((resolve) => child.once('exit', resolve));
