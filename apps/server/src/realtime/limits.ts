import { RealtimeCloseCode } from '@btalk/contracts';
import type { Connection } from './connection.ts';

/** The window of the per-socket message limit. */
const MESSAGE_WINDOW_MS = 10_000;

/** What a connection has sent in its current window. */
interface MessageWindow {
  startedAt: number;
  count: number;
}

/**
 * The realtime stream's limits on one instance: signed-in sockets per person, and client messages
 * per socket per 10 s. Sockets are counted per instance (a person behind a load balancer may hold
 * up to the limit on each); messages are a property of one socket anyway.
 */
export class RealtimeLimits {
  readonly #maxSockets: number;
  readonly #maxMessages: number;
  readonly #now: () => number;
  readonly #sockets = new Map<string, number>();
  readonly #windows = new WeakMap<Connection, MessageWindow>();

  constructor(
    limits: { maxSocketsPerPerson: number; messagesPer10Seconds: number },
    now: () => number = Date.now,
  ) {
    this.#maxSockets = limits.maxSocketsPerPerson;
    this.#maxMessages = limits.messagesPer10Seconds;
    this.#now = now;
  }

  /**
   * Takes one more socket for the person, or closes `socket` with 4429 and answers false when they
   * already hold the maximum. Every admitted socket is given back with `release`.
   */
  admit(userId: string, socket: { close(code: number, reason: string): void }): boolean {
    const held = this.#sockets.get(userId) ?? 0;
    if (held >= this.#maxSockets) {
      socket.close(
        RealtimeCloseCode.tooManyConnections,
        `too many connections: at most ${this.#maxSockets} per person; close another tab`,
      );
      return false;
    }
    this.#sockets.set(userId, held + 1);
    return true;
  }

  /** Gives back a socket that `admit` took. */
  release(userId: string): void {
    const held = (this.#sockets.get(userId) ?? 0) - 1;
    if (held > 0) this.#sockets.set(userId, held);
    else this.#sockets.delete(userId);
  }

  /** Sockets the person holds on this instance. */
  socketsOf(userId: string): number {
    return this.#sockets.get(userId) ?? 0;
  }

  /**
   * Counts one client message. True: handle it. False: it is dropped; over the limit the client is
   * told (`error`, reason `rateLimited`), and at twice the limit within the window the socket is
   * closed with 4430.
   */
  allowMessage(connection: Connection): boolean {
    const now = this.#now();
    let window = this.#windows.get(connection);
    if (!window || now - window.startedAt >= MESSAGE_WINDOW_MS) {
      window = { startedAt: now, count: 0 };
      this.#windows.set(connection, window);
    }
    window.count += 1;
    if (window.count <= this.#maxMessages) return true;
    if (window.count > 2 * this.#maxMessages) {
      connection.close(
        RealtimeCloseCode.tooManyMessages,
        `too many messages: at most ${this.#maxMessages} per 10 s; reconnect and slow down`,
      );
      return false;
    }
    const waitSeconds = Math.ceil((window.startedAt + MESSAGE_WINDOW_MS - now) / 1000);
    connection.send({
      type: 'error',
      reason: 'rateLimited',
      message: `Too many messages: at most ${this.#maxMessages} per 10 s. This one was dropped; send again in ${waitSeconds} s.`,
    });
    return false;
  }
}
