/**
 * What the benchmarks that drive a forked server over HTTP and WebSockets share: one clock, the
 * percentiles they print, and a realtime socket signed in with the app's hello.
 */
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
