/**
 * What the benchmarks that drive a forked server over HTTP and WebSockets share: one clock, the
 * percentiles they print, a realtime socket signed in with the app's hello, and CPU time read from /proc.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';

/** Milliseconds on one clock for the whole process (comparable across sockets and requests). */
export const clock = () => performance.timeOrigin + performance.now();
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export interface Summary {
  n: number;
  p50: number;
  p99: number;
  max: number;
}

export function summary(values: number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
  };
}

export const ms = (v: number) => (Number.isNaN(v) ? 'n/a' : `${v.toFixed(1)} ms`);
export const line = (s: Summary) => `p50 ${ms(s.p50)}, p99 ${ms(s.p99)}, max ${ms(s.max)} (n=${s.n})`;

/** A number argument `--name=value` of the command line, or `fallback`. */
export function numberArg(args: string[], name: string, fallback: number): number {
  return Number(args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
}

/**
 * Opens a realtime socket and signs it in (`hello`); resolves once the server says `ready`. Every
 * later frame goes to `onMessage` with the time it arrived.
 */
export function connectRealtime(
  port: number,
  apiKey: string,
  token: string,
  onMessage: (text: string, at: number) => void,
): Promise<WebSocket> {
  const socket = new WebSocket(`ws://127.0.0.1:${port}/api/realtime`);
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.on('open', () => socket.send(JSON.stringify({ type: 'hello', token, apiKey, lastSeq: null })));
    socket.on('message', (data) => {
      const at = clock();
      const text = data.toString();
      if (text.startsWith('{"type":"ready"')) resolve(socket);
      else onMessage(text, at);
    });
  });
}

/** Connects `tokens` in batches of `batch` (the server's accept queue is not a benchmark). */
export async function connectAllRealtime(
  port: number,
  apiKey: string,
  tokens: string[],
  onMessage: (text: string, at: number) => void,
  batch = 200,
): Promise<WebSocket[]> {
  const sockets: WebSocket[] = [];
  for (let i = 0; i < tokens.length; i += batch) {
    sockets.push(
      ...(await Promise.all(
        tokens.slice(i, i + batch).map((t) => connectRealtime(port, apiKey, t, onMessage)),
      )),
    );
  }
  return sockets;
}

/** Clock ticks per second of /proc's CPU times (`getconf CLK_TCK`: 100 on Linux). */
const CLOCK_TICKS = 100;

/** CPU seconds (user and system) a process has used, from /proc; 0 once it is gone. */
export function processCpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at the state, field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** CPU seconds used by every process named `name` on this machine (say, PostgreSQL's server processes). */
export function cpuSecondsOfAll(name: string): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== name) continue;
    } catch {
      continue;
    }
    total += processCpuSeconds(Number(entry));
  }
  return total;
}
