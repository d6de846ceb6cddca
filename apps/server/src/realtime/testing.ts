import type { ServerMessage } from '@btalk/contracts';
import WebSocket from 'ws';
import { transact } from '../commands/transact.ts';
import type { AppContext } from '../context.ts';
import { type DomainEventRecord, recordEvent, toRecord } from '../events/eventLog.ts';

/**
 * Records one event through a real command transaction (so the commit signal fires), and reads it
 * back as committed (on PostgreSQL its sequence number is drawn at commit): the newest of its room
 * and type.
 */
export async function record(
  ctx: AppContext,
  room: string,
  type = 'test.happened',
  payload: unknown = {},
): Promise<DomainEventRecord> {
  await transact(ctx, (trx) => recordEvent(trx, { room, type, payload }));
  const row = await ctx.db.kysely
    .selectFrom('events')
    .selectAll()
    .where('room', '=', room)
    .where('type', '=', type)
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  return toRecord(row);
}

/** A real `ws` client of /api/realtime that keeps every message, for tests. */
export class TestClient {
  readonly socket: WebSocket;
  readonly messages: ServerMessage[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  readonly opened: Promise<void>;
  #waiters: Array<() => void> = [];

  constructor(baseUrl: string, options: WebSocket.ClientOptions = {}) {
    this.socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/api/realtime`, options);
    this.opened = new Promise((resolve, reject) => {
      this.socket.once('open', () => resolve());
      this.socket.once('unexpected-response', (req, res) => {
        reject(new Error(`HTTP ${res.statusCode}`));
        // With a listener here, ws leaves the refused request open: end it, or the server waits on it.
        req.destroy();
        this.socket.terminate();
      });
      this.socket.once('error', reject);
    });
    this.opened.catch(() => {});
    this.closed = new Promise((resolve) => {
      this.socket.once('close', (code, reason) => {
        resolve({ code, reason: reason.toString() });
        this.#notify();
      });
    });
    this.socket.on('message', (data) => {
      this.messages.push(JSON.parse(data.toString()) as ServerMessage);
      this.#notify();
    });
  }

  #notify(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const w of waiters) w();
  }

  /** Sends a message object as JSON. */
  send(message: object): void {
    this.socket.send(JSON.stringify(message));
  }

  /** Opens, says hello, and waits for `ready` (or a close, which rejects). */
  async hello(token: string, apiKey: string, lastSeq: number | null = null): Promise<void> {
    await this.opened;
    this.send({ type: 'hello', token, apiKey, lastSeq });
    await this.waitFor((m) => m.type === 'ready');
  }

  /** The domain events received so far. */
  events(): Array<Extract<ServerMessage, { type: 'event' }>> {
    return this.messages.filter((m): m is Extract<ServerMessage, { type: 'event' }> => m.type === 'event');
  }

  /** Greatest seq received (events, ready, resync), as a client would keep it. */
  lastSeq(): number | null {
    let last: number | null = null;
    for (const m of this.messages) {
      if (m.type === 'event' || m.type === 'ready' || m.type === 'resync') last = Math.max(last ?? 0, m.seq);
    }
    return last;
  }

  /** Resolves with the first message (already received or later) that matches. */
  async waitFor<T extends ServerMessage>(match: (m: ServerMessage) => boolean, timeoutMs = 5000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(match);
      if (found) return found as T;
      if (this.socket.readyState === WebSocket.CLOSED) {
        const { code, reason } = await this.closed;
        throw new Error(`socket closed (${code} ${reason}) before the expected message`);
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching message within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Waits until `count` events matching `match` have arrived, and returns them. */
  async waitForEvents(count: number, match: (m: ServerMessage) => boolean = () => true, timeoutMs = 8000) {
    const matching = () => this.events().filter(match);
    try {
      await this.waitFor(() => matching().length >= count, timeoutMs);
    } catch (error) {
      throw new Error(`got ${matching().length} of ${count} events: ${(error as Error).message}`);
    }
    return matching();
  }

  /** Closes from the client side and waits for the close. */
  async close(): Promise<void> {
    if (this.socket.readyState !== WebSocket.CLOSED) this.socket.close();
    // A paused or broken socket never finishes the handshake: cut it.
    const timer = setTimeout(() => this.socket.terminate(), 1000);
    await this.closed;
    clearTimeout(timer);
  }
}

/** Lets the event loop and the database go around once or twice. */
export const settle = (ms = 100) => new Promise((resolve) => setTimeout(resolve, ms));
