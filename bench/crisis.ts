/**
 * The crisis minute (issue 14, point 1): a call-tree event over `people` people while `others`
 * other signed-in sockets are connected; answers arrive through the real API
 * (POST /api/calltree/events/:id/answers, each as its own target) at `rate` a second for `seconds`
 * seconds while `watchers` (the tree's event managers and a crisis team of admins) watch the
 * event's room live. The server is a child process (bench/crisis-server.ts); the clients live in
 * this process and measure on one clock.
 *
 * Each watcher does what the web's roll-up screen does: it reads the roll-up once when it opens
 * (before the reference, not counted), then on every `callevent.answered` its socket receives, it
 * fetches the roll-up again (GET /api/calltree/events/:id), one fetch at a time with
 * `REFRESH_GAP_MS` after each while changes keep coming (apps/web/src/realtime/coalescedRefresh.ts).
 * `--sockets-only` leaves the fetches out (the watchers only listen).
 *
 * Figures: answers acknowledged / sent; answer latency (send to HTTP 200) p50/p99; the roll-up on
 * screen, from an answer's acknowledgement until each watcher has a fetched roll-up that includes it
 * (its first fetch begun after the answer was committed); the same to each watcher socket's
 * `callevent.answered` (an event that arrives before the acknowledgement counts as 0; the time from
 * the answer's send is printed too, as an upper bound that includes the answer's own latency); and the
 * delivery delay of a probe post, made every second in an organisation-wide topic, to the other
 * sockets: before the storm (reference, same run) and during it.
 *
 *   ulimit -n 65536; sh scripts/node.sh node --experimental-strip-types \
 *     --disable-warning=ExperimentalWarning bench/crisis.ts [--people=10000] [--others=5000] \
 *     [--watchers=50] [--rate=200] [--seconds=50] [--reference=10] [--postgres] [--sockets-only]
 */
import { type ChildProcess, fork } from 'node:child_process';
import { availableParallelism } from 'node:os';
import type WebSocket from 'ws';
import { REFRESH_GAP_MS } from '../apps/web/src/realtime/coalescedRefresh.ts';
import type { CrisisOptions, CrisisReady } from './crisis-server.ts';
import {
  clock,
  connectAllRealtime,
  cpuSecondsOfAll,
  line,
  ms,
  numberArg,
  processCpuSeconds,
  sleep,
  summary,
} from './measure.ts';

const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => numberArg(args, name, fallback);
const PEOPLE = arg('people', 10_000);
const OTHERS = arg('others', 5000);
const WATCHERS = arg('watchers', 50);
const RATE = arg('rate', 200);
const SECONDS = arg('seconds', 50);
const REFERENCE_SECONDS = arg('reference', 10);
const POSTGRES = args.includes('--postgres');
const ROLLUPS = !args.includes('--sockets-only');
/** How long after the last answer the watchers and other sockets may take before a delivery counts as lost. */
const DRAIN_MS = 15_000;
const CONNECT_BATCH = 200;
/** One admin in ten of the watchers is the crisis team (at least one); the rest manage the tree. */
const CRISIS = Math.max(1, Math.round(WATCHERS / 10));
const MANAGERS = WATCHERS - CRISIS;

function startServer(): Promise<{ child: ChildProcess; ready: CrisisReady }> {
  const options: CrisisOptions = {
    people: PEOPLE,
    managers: MANAGERS,
    crisis: CRISIS,
    others: OTHERS,
    answerers: RATE * SECONDS,
    postgres: POSTGRES,
  };
  const child = fork(new URL('./crisis-server.ts', import.meta.url), [JSON.stringify(options)], {
    execArgv: ['--experimental-strip-types', '--disable-warning=ExperimentalWarning'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the server exited with ${code} before it was ready`)));
    child.on('message', (m: CrisisReady) => {
      if (m.type === 'ready') resolve({ child, ready: m });
    });
  });
}

const started = clock();
const { child, ready } = await startServer();
console.log(
  `${ready.database}: ${PEOPLE} targets, ${OTHERS} other sockets, ${WATCHERS} watchers ` +
    `(${MANAGERS} event managers, ${CRISIS} crisis-team admins), ${RATE} answers/s for ${SECONDS} s; ` +
    `set up in ${((clock() - started) / 1000).toFixed(0)} s`,
);

/** Probe posts: when each was sent, and its delivery delays to the other sockets by phase. */
const probeSentAt = new Map<string, number>();
const probeDelays = { reference: [] as number[], storm: [] as number[] };
let phase: 'reference' | 'storm' = 'reference';
const probeCounts = { reference: 0, storm: 0 };
/** Answers: send and acknowledgement times per person, and when each watcher socket received them. */
const sentAtOf = new Map<string, number>();
const ackedAt = new Map<string, number>();
/** Per person: each watcher that received the answer's event, and when. */
const reflectedAt = new Map<string, Array<{ watcher: number; at: number }>>();

const onOther = (text: string, at: number) => {
  if (!text.includes('"post.created"')) return;
  const marker = /crisis-probe-\d+/.exec(text)?.[0];
  const sentAt = marker ? probeSentAt.get(marker) : undefined;
  if (sentAt !== undefined) probeDelays[phase].push(at - sentAt);
};
/** A watcher's roll-up screen: fetches again on each change, one fetch at a time, as the web does. */
class RollupScreen {
  readonly fetches: Array<{ from: number; to: number; bytes: number }> = [];
  failures = 0;
  #busy = false;
  #again = false;
  readonly token: string;
  constructor(token: string) {
    this.token = token;
  }
  get busy(): boolean {
    return this.#busy;
  }
  changed(): void {
    if (this.#busy) this.#again = true;
    else void this.#run();
  }
  async #run(): Promise<void> {
    this.#busy = true;
    do {
      this.#again = false;
      const from = clock();
      try {
        const res = await fetch(`http://127.0.0.1:${ready.port}/api/calltree/events/${ready.eventId}`, {
          headers: { 'x-api-key': ready.apiKey, authorization: `Bearer ${this.token}` },
        });
        // The body as the page reads it (fetch decompresses what the server compressed).
        const { byteLength } = await res.arrayBuffer();
        if (res.ok) this.fetches.push({ from, to: clock(), bytes: byteLength });
        else this.failures += 1;
      } catch {
        this.failures += 1;
      }
      await sleep(REFRESH_GAP_MS);
    } while (this.#again);
    this.#busy = false;
  }
}
const screens = ready.watcherTokens.map((token) => new RollupScreen(token));
const onWatcher = (watcher: number, text: string, at: number) => {
  if (!text.includes('"callevent.answered"')) return;
  const personId = (JSON.parse(text) as { payload: { personId: string } }).payload.personId;
  const times = reflectedAt.get(personId);
  if (times) times.push({ watcher, at });
  else reflectedAt.set(personId, [{ watcher, at }]);
  if (ROLLUPS) screens[watcher]!.changed();
};

const sockets: WebSocket[] = [];
async function connectAll(tokens: string[], onMessage: (text: string, at: number) => void) {
  sockets.push(...(await connectAllRealtime(ready.port, ready.apiKey, tokens, onMessage, CONNECT_BATCH)));
}
for (const [watcher, token] of ready.watcherTokens.entries()) {
  await connectAll([token], (text, at) => onWatcher(watcher, text, at));
}
await connectAll(ready.otherTokens, onOther);

const base = `http://127.0.0.1:${ready.port}/api`;
let probes = 0;
const probeFailures: string[] = [];
async function probe(): Promise<void> {
  probes += 1;
  const marker = `crisis-probe-${probes}`;
  probeSentAt.set(marker, clock());
  probeCounts[phase] += 1;
  try {
    const res = await fetch(`${base}/topics/${ready.topicId}/posts`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-api-key': ready.apiKey,
        authorization: `Bearer ${ready.probeToken}`,
      },
      body: JSON.stringify({ clientId: marker, body: marker }),
    });
    if (!res.ok) probeFailures.push(`HTTP ${res.status} ${(await res.text()).slice(0, 200)}`);
  } catch (error) {
    // A probe the server could not take is a result of the run (its deliveries count as lost).
    probeFailures.push((error as Error).message);
  }
}

/** One probe a second for `seconds` seconds, then time for the last one to arrive. */
async function probeFor(seconds: number): Promise<void> {
  const from = clock();
  for (let n = 0; n < seconds; n++) {
    const wait = from + n * 1000 - clock();
    if (wait > 0) await sleep(wait);
    await probe();
  }
}

// The screens open as the web's do: each reads the roll-up once when it is shown, before any answer
// (those first reads are not counted in the figures).
if (ROLLUPS) {
  for (const screen of screens) screen.changed();
  while (screens.some((s) => s.busy)) await sleep(50);
  for (const screen of screens) screen.fetches.length = 0;
}

// Warm up (JIT, keep-alive connections), then the reference: probes with no answers arriving.
await probe();
await sleep(2000);
probeDelays.reference.length = 0;
probeCounts.reference = 0;
await probeFor(REFERENCE_SECONDS);
await sleep(1000);

// The storm: answers at RATE a second (each target once), probes every second alongside.
phase = 'storm';
const latencies: number[] = [];
const failures: string[] = [];
/** CPU seconds of the server, PostgreSQL's processes and this client, read when the storm begins and when it has drained. */
const cpuNow = () => {
  const own = process.cpuUsage();
  return {
    server: processCpuSeconds(child.pid!),
    postgres: POSTGRES ? cpuSecondsOfAll('postgres') : 0,
    client: (own.user + own.system) / 1e6,
  };
};
const cpuFrom = cpuNow();
const stormFrom = clock();
const probing = probeFor(SECONDS);
const sends: Promise<void>[] = [];
for (let n = 0; n < ready.answerers.length; n++) {
  const due = stormFrom + (n * 1000) / RATE;
  const wait = due - clock();
  if (wait > 0) await sleep(wait);
  const { id, token } = ready.answerers[n]!;
  const sentAt = clock();
  sentAtOf.set(id, sentAt);
  sends.push(
    fetch(`${base}/calltree/events/${ready.eventId}/answers`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-api-key': ready.apiKey,
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify({ id: `crisis-answer-${n}`, optionId: n % 10 === 0 ? 'need_help' : 'safe' }),
    }).then(
      async (res) => {
        const at = clock();
        const text = await res.text();
        if (!res.ok) {
          failures.push(`HTTP ${res.status} ${text.slice(0, 200)}`);
          return;
        }
        ackedAt.set(id, at);
        latencies.push(at - sentAt);
      },
      (error: Error) => {
        failures.push(error.message);
      },
    ),
  );
}
const sendingMs = clock() - stormFrom;
await Promise.all(sends);
await probing;
const deadline = clock() + DRAIN_MS;
const expectedReflections = () => ackedAt.size * WATCHERS;
const receivedReflections = () => [...reflectedAt.values()].reduce((sum, t) => sum + t.length, 0);
while (clock() < deadline && receivedReflections() < expectedReflections()) await sleep(50);
while (clock() < deadline && screens.some((s) => s.busy)) await sleep(50);
const cpuTo = cpuNow();
const stormSeconds = (clock() - stormFrom) / 1000;
await sleep(1000);

const reflections: number[] = [];
const fromSend: number[] = [];
const onScreen: number[] = [];
let beforeAck = 0;
let notOnScreen = 0;
for (const [personId, times] of reflectedAt) {
  const acked = ackedAt.get(personId);
  if (acked === undefined) continue;
  for (const { watcher, at } of times) {
    if (at < acked) beforeAck += 1;
    reflections.push(Math.max(0, at - acked));
    fromSend.push(at - sentAtOf.get(personId)!);
    if (!ROLLUPS) continue;
    // Committed before both the acknowledgement and the event: a fetch begun after either has it.
    const committedBy = Math.min(acked, at);
    const shown = screens[watcher]!.fetches.find((f) => f.from >= committedBy);
    if (shown) onScreen.push(Math.max(0, shown.to - acked));
    else notOnScreen += 1;
  }
}
const rollupFetches = screens.reduce((sum, s) => sum + s.fetches.length, 0);
const rollupFailures = screens.reduce((sum, s) => sum + s.failures, 0);
const screen = summary(onScreen);
const fetchTimes = summary(screens.flatMap((s) => s.fetches.map((f) => f.to - f.from)));
const answers = summary(latencies);
const reflection = summary(reflections);
const reflectionFromSend = summary(fromSend);
const reference = summary(probeDelays.reference);
const storm = summary(probeDelays.storm);
const lostProbes = {
  reference: probeCounts.reference * OTHERS - probeDelays.reference.length,
  storm: probeCounts.storm * OTHERS - probeDelays.storm.length,
};

console.log(
  `answers acknowledged / sent: ${ackedAt.size} / ${ready.answerers.length} (sending took ${(sendingMs / 1000).toFixed(1)} s)`,
);
if (failures.length > 0) console.log(`  first failures: ${failures.slice(0, 3).join(' | ')}`);
console.log(`answer latency (send to 200):            ${line(answers)}`);
const cpuUsed = (key: keyof typeof cpuFrom) => cpuTo[key] - cpuFrom[key];
const perAnswer = (key: keyof typeof cpuFrom) => ms((cpuUsed(key) * 1000) / Math.max(1, ackedAt.size));
console.log(
  `CPU from the storm's start until drained (${stormSeconds.toFixed(1)} s; ${availableParallelism()} cores: ${(availableParallelism() * stormSeconds).toFixed(0)} s): ` +
    `server ${cpuUsed('server').toFixed(1)} s (${perAnswer('server')} an answer)` +
    (POSTGRES
      ? `, PostgreSQL ${cpuUsed('postgres').toFixed(1)} s (${perAnswer('postgres')} an answer)`
      : '') +
    `, this client ${cpuUsed('client').toFixed(1)} s`,
);
if (ROLLUPS) {
  console.log(
    `roll-up on screen (ack to a fetched roll-up with it): ${line(screen)}; ${notOnScreen} never shown; ` +
      `${rollupFetches} roll-up fetches (${(rollupFetches / (sendingMs / 1000)).toFixed(0)}/s while answers came), ${rollupFailures} failed`,
  );
  console.log(`roll-up fetch (request to its body):     ${line(fetchTimes)}`);
  const bodies = screens.flatMap((s) => s.fetches.map((f) => f.bytes));
  if (bodies.length > 0)
    console.log(
      `roll-up body (uncompressed):             mean ${(bodies.reduce((a, b) => a + b, 0) / bodies.length / 1024).toFixed(1)} KB`,
    );
}
console.log(
  `roll-up reflection (ack to watcher):     ${line(reflection)}; ${beforeAck} before the ack, ` +
    `${expectedReflections() - receivedReflections()} missing`,
);
console.log(`roll-up reflection (send to watcher):    ${line(reflectionFromSend)}`);
if (probeFailures.length > 0)
  console.log(`probe posts failed: ${probeFailures.length} (${probeFailures.slice(0, 3).join(' | ')})`);
console.log(`probe delay to other sockets, reference: ${line(reference)}; lost ${lostProbes.reference}`);
console.log(`probe delay to other sockets, storm:     ${line(storm)}; lost ${lostProbes.storm}`);
console.log(
  `other sockets delayed by the storm (p99 storm - p99 reference): ${ms(storm.p99 - reference.p99)}, ` +
    `(p50): ${ms(storm.p50 - reference.p50)}`,
);
console.log(
  `bars (issue 14): every answer acknowledged ${ackedAt.size === ready.answerers.length ? 'yes' : 'NO'}; ` +
    `answer p99 < 100 ms ${answers.p99 < 100 ? 'yes' : 'NO'}; roll-up p99 < 1 s ${(ROLLUPS ? screen.p99 < 1000 && notOnScreen === 0 : reflection.p99 < 1000) ? 'yes' : 'NO'}; ` +
    `others delayed < 50 ms ${storm.p99 - reference.p99 < 50 ? 'yes' : 'NO'}`,
);

const { answerTimes } = await new Promise<{ answerTimes: number[] }>((resolve) => {
  child.on('message', (m: { answerTimes?: number[] }) => {
    if (m.answerTimes) resolve({ answerTimes: m.answerTimes });
  });
  child.send('answer-times');
});
console.log(`answer time inside the server:           ${line(summary(answerTimes))}`);

for (const socket of sockets) socket.terminate();
child.removeAllListeners('exit');
child.kill('SIGTERM');
await new Promise((resolve) => child.once('exit', resolve));
