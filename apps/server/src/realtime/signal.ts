import { randomUUID } from 'node:crypto';
import type { VolatileMessage } from '@btalk/contracts';
import { Redis } from 'ioredis';

/** The Redis channel every instance publishes on and listens to. */
export const REALTIME_CHANNEL = 'btalk:realtime';

type Wire =
  | { from: string; kind: 'committed' }
  | { from: string; kind: 'volatile'; message: VolatileMessage };

/** Minimal logger shape (pino's). */
interface Log {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/**
 * What instances tell each other: "a transaction committed events, read the log" and volatile
 * events (typing, presence), which exist nowhere else. Only the first is safe to lose: the log stays
 * the source of truth and every instance also polls it.
 */
export interface ClusterSignal {
  publishCommitted(): void;
  publishVolatile(message: VolatileMessage): void;
  /** `listener` runs when another instance committed events, or when the link came back. */
  onCommitted(listener: () => void): void;
  onVolatile(listener: (message: VolatileMessage) => void): void;
  close(): Promise<void>;
}

/** One instance alone (SQLite, or no REDIS_URL): nothing to tell anyone. */
export class LocalSignal implements ClusterSignal {
  publishCommitted(): void {}
  publishVolatile(): void {}
  onCommitted(): void {}
  onVolatile(): void {}
  async close(): Promise<void> {}
}

/**
 * Redis pub/sub between instances. Two connections (a subscribed one cannot publish). Publishing
 * never queues while Redis is away: a lost "committed" costs at most one poll interval, and stale
 * typing is worse than none.
 */
export class RedisSignal implements ClusterSignal {
  readonly #id = randomUUID();
  readonly #pub: Redis;
  readonly #sub: Redis;
  readonly #committed: Array<() => void> = [];
  readonly #volatile: Array<(message: VolatileMessage) => void> = [];
  #wasDown = false;

  constructor(url: string, log: Log) {
    const options = {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      retryStrategy: (times: number) => Math.min(times * 100, 1000),
      lazyConnect: false,
    };
    this.#pub = new Redis(url, options);
    this.#sub = new Redis(url, { ...options, enableOfflineQueue: true, maxRetriesPerRequest: null });
    for (const [name, client] of [
      ['publisher', this.#pub],
      ['subscriber', this.#sub],
    ] as const) {
      client.on('error', (error: Error) => {
        if (!this.#wasDown) log.warn({ err: error.message, client: name }, 'realtime: Redis unreachable');
        this.#wasDown = true;
      });
    }
    this.#sub.on('ready', () => {
      if (this.#wasDown) log.info({}, 'realtime: Redis is back; reading the event log');
      this.#wasDown = false;
      // Signals sent while we were away are gone: read the log now rather than at the next poll.
      for (const listener of this.#committed) listener();
    });
    this.#sub.subscribe(REALTIME_CHANNEL).catch(() => {
      // ioredis subscribes again by itself after reconnecting (autoResubscribe).
    });
    this.#sub.on('message', (_channel: string, text: string) => {
      let wire: Wire;
      try {
        wire = JSON.parse(text) as Wire;
      } catch {
        return;
      }
      if (wire.from === this.#id) return;
      if (wire.kind === 'committed') for (const listener of this.#committed) listener();
      else if (wire.kind === 'volatile') for (const listener of this.#volatile) listener(wire.message);
    });
  }

  #publish(wire: Wire): void {
    if (this.#pub.status !== 'ready') return;
    this.#pub.publish(REALTIME_CHANNEL, JSON.stringify(wire)).catch(() => {});
  }

  publishCommitted(): void {
    this.#publish({ from: this.#id, kind: 'committed' });
  }

  publishVolatile(message: VolatileMessage): void {
    this.#publish({ from: this.#id, kind: 'volatile', message });
  }

  onCommitted(listener: () => void): void {
    this.#committed.push(listener);
  }

  onVolatile(listener: (message: VolatileMessage) => void): void {
    this.#volatile.push(listener);
  }

  async close(): Promise<void> {
    this.#pub.disconnect();
    this.#sub.disconnect();
  }
}
