import type { EventMessage, PresenceSnapshotMessage, ServerMessage, VolatileMessage } from '@btalk/contracts';
import { RealtimeCloseCode } from '@btalk/contracts/constants';
import type { Store } from '../stores/createStore.ts';
import { type BackoffOptions, backoffDelay, DEFAULT_BACKOFF } from './backoff.ts';
import { createRealtimeStateStore, type RealtimeState } from './statusStore.ts';

/** The part of the browser's WebSocket the client uses (the `ws` package's client has it too). */
export interface SocketLike {
  readonly readyState: number;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

/** Opens a socket to a URL. */
export type SocketFactory = (url: string) => SocketLike;

/** Where the browser tells about its network (window); absent in tests that do not need it. */
export interface NetworkEvents {
  addEventListener(type: 'online' | 'offline', listener: () => void): void;
  removeEventListener(type: 'online' | 'offline', listener: () => void): void;
}

/** Options of the realtime client. */
export interface RealtimeClientOptions {
  /** `ws(s)://host/api/realtime`. */
  url: string;
  /** The web client's key (init.json's `apiKey`). */
  apiKey: string;
  /** The current access token, unsealed, or null without a session. */
  getToken(): Promise<string | null>;
  /** Refreshes the session through the API client; true when a new access token is stored. */
  refresh(failedToken: string | null): Promise<boolean>;
  /** One domain event, in order, each once. */
  onEvent(event: EventMessage): void;
  /** The client was too far behind (or this is a fresh start after a gap): refetch everything. */
  onResync(): void;
  /**
   * Replay is done; `first` on the first `ready` of this client (what was loaded before may be
   * stale); `seq`: every event after it comes on the stream.
   */
  onReady?(info: { first: boolean; userId: string; seq: number }): void;
  /** Typing and presence of other people. */
  onVolatile?(message: VolatileMessage | PresenceSnapshotMessage): void;
  /** The server refuses the person until they accept the current terms. */
  onTermsRequired(): void;
  /** The session is gone and could not be refreshed. */
  onSignedOut?(): void;
  createSocket?: SocketFactory;
  network?: NetworkEvents;
  backoff?: BackoffOptions;
  random?: () => number;
  /** How often to ping; a connection silent for this plus `pongTimeoutMs` is taken as dead. */
  pingEveryMs?: number;
  pongTimeoutMs?: number;
  /** A connection that is not `ready` this long after opening is given up and retried. */
  readyTimeoutMs?: number;
}

/** How often presence is repeated (the server forgets it after 65 s and asks for at least every 30 s). */
export const PRESENCE_REPEAT_MS = 25_000;
/** The server relays one typing signal per person and room every 2 s; sending more is waste. */
export const TYPING_THROTTLE_MS = 2000;

const OPEN = 1;

/**
 * The tab's one realtime connection (DESIGN.md 7). It authenticates in its first message, keeps the
 * greatest `seq` it has seen in memory and resumes from it after any drop, ignoring events it already
 * has: nothing missed, nothing doubled. Drops are retried with exponential backoff and full jitter;
 * the browser's `online` event retries at once.
 */
export class RealtimeClient {
  /** Connection status and the person, for the UI. */
  readonly state: Store<RealtimeState> = createRealtimeStateStore();
  readonly #o: RealtimeClientOptions;
  readonly #createSocket: SocketFactory;
  #socket: SocketLike | null = null;
  #lastSeq: number | null = null;
  #attempt = 0;
  #running = false;
  #readyOnce = false;
  #ready = false;
  /** The token the current socket said hello with (a 4001 refreshes past it). */
  #helloToken: string | null = null;
  /** Set when a refresh was spent on a 4001 and no `ready` followed yet: a second 4001 stops. */
  #refreshedSinceReady = false;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  #heartbeat: ReturnType<typeof setInterval> | undefined;
  #readyTimer: ReturnType<typeof setTimeout> | undefined;
  #presenceTimer: ReturnType<typeof setInterval> | undefined;
  #lastHeard = 0;
  readonly #presentRooms = new Set<string>();
  readonly #typingSentAt = new Map<string, number>();

  constructor(options: RealtimeClientOptions) {
    this.#o = options;
    this.#createSocket = options.createSocket ?? ((url) => new WebSocket(url) as unknown as SocketLike);
  }

  /** The greatest event sequence number seen (what a reconnect resumes from). */
  get lastSeq(): number | null {
    return this.#lastSeq;
  }

  /** Opens the connection (and keeps it open) until `stop()`. */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#o.network?.addEventListener('online', this.#onOnline);
    this.#o.network?.addEventListener('offline', this.#onOffline);
    this.#presenceTimer = setInterval(() => this.#announcePresence(), PRESENCE_REPEAT_MS);
    this.state.setState({ status: 'connecting' });
    void this.#connect();
  }

  /** Closes the connection and stops reconnecting (sign-out, terms). */
  stop(): void {
    this.#running = false;
    this.#o.network?.removeEventListener('online', this.#onOnline);
    this.#o.network?.removeEventListener('offline', this.#onOffline);
    clearInterval(this.#presenceTimer);
    clearTimeout(this.#retryTimer);
    this.#dropSocket(1000, 'client stopped');
    this.state.setState({ status: 'stopped' });
  }

  /** Hands a refreshed access token to the open connection, so that it outlives the old one. */
  async updateToken(): Promise<void> {
    const token = await this.#o.getToken();
    if (!token || !this.#ready || token === this.#helloToken) return;
    this.#helloToken = token;
    this.#send({ type: 'token', token });
  }

  /** Says that this tab shows `room` (`true`) or no longer does; repeated and re-sent after reconnects. */
  setPresent(room: string, present: boolean): void {
    if (present === this.#presentRooms.has(room)) return;
    if (present) this.#presentRooms.add(room);
    else this.#presentRooms.delete(room);
    if (this.#ready) this.#send({ type: 'presence', room, state: present ? 'here' : 'left' });
  }

  /** The person is typing in `room`: sent at most every 2 s. */
  typing(room: string, now = Date.now()): void {
    if (!this.#ready) return;
    const last = this.#typingSentAt.get(room) ?? Number.NEGATIVE_INFINITY;
    if (now - last < TYPING_THROTTLE_MS) return;
    this.#typingSentAt.set(room, now);
    this.#send({ type: 'typing', room });
  }

  readonly #onOnline = () => {
    if (!this.#running || this.#socket) return;
    clearTimeout(this.#retryTimer);
    this.#attempt = 0;
    this.state.setState({ status: 'reconnecting' });
    void this.#connect();
  };

  readonly #onOffline = () => {
    if (!this.#running) return;
    // The socket may linger for a while without a network; resuming later misses nothing.
    this.#dropSocket(1000, 'browser offline');
    clearTimeout(this.#retryTimer);
    this.state.setState({ status: 'offline' });
  };

  async #connect(): Promise<void> {
    if (!this.#running || this.#socket) return;
    const token = await this.#o.getToken();
    if (!this.#running || this.#socket) return;
    if (!token) {
      this.#o.onSignedOut?.();
      this.stop();
      return;
    }
    this.#helloToken = token;
    this.#ready = false;
    const socket = this.#createSocket(this.#o.url);
    this.#socket = socket;
    socket.onopen = () => {
      this.#lastHeard = Date.now();
      socket.send(JSON.stringify({ type: 'hello', token, apiKey: this.#o.apiKey, lastSeq: this.#lastSeq }));
      this.#readyTimer = setTimeout(
        () => this.#lost(socket, 'no ready in time'),
        this.#o.readyTimeoutMs ?? 15_000,
      );
    };
    socket.onmessage = (event) => {
      if (socket !== this.#socket || typeof event.data !== 'string') return;
      this.#lastHeard = Date.now();
      let message: ServerMessage;
      try {
        message = JSON.parse(event.data) as ServerMessage;
      } catch {
        return;
      }
      this.#handle(message);
    };
    socket.onerror = () => {
      // A close event always follows; reconnecting is decided there.
    };
    socket.onclose = (event) => {
      if (socket !== this.#socket) return;
      this.#socket = null;
      this.#stopTimers();
      void this.#closed(event.code);
    };
  }

  #handle(message: ServerMessage): void {
    switch (message.type) {
      case 'event':
        // Replay and live stream never overlap on the server, but a resumed connection may still
        // carry what the previous one delivered: the seq decides.
        if (this.#lastSeq !== null && message.seq <= this.#lastSeq) return;
        this.#lastSeq = message.seq;
        this.#o.onEvent(message);
        break;
      case 'resync':
        this.#lastSeq = message.seq;
        this.#o.onResync();
        break;
      case 'ready': {
        clearTimeout(this.#readyTimer);
        this.#lastSeq = Math.max(this.#lastSeq ?? 0, message.seq);
        this.#ready = true;
        this.#attempt = 0;
        this.#refreshedSinceReady = false;
        const first = !this.#readyOnce;
        this.#readyOnce = true;
        this.state.setState({ status: 'connected', userId: message.userId });
        this.#startHeartbeat();
        this.#announcePresence();
        this.#o.onReady?.({ first, userId: message.userId, seq: message.seq });
        break;
      }
      case 'volatile':
      case 'presenceSnapshot':
        this.#o.onVolatile?.(message);
        break;
      default:
        // pong, tokenAccepted and error need nothing beyond having heard from the server.
        break;
    }
  }

  async #closed(code: number): Promise<void> {
    if (!this.#running) return;
    if (code === RealtimeCloseCode.termsNotAccepted) {
      // Reconnecting would be refused again: stop until the person has accepted the terms.
      this.stop();
      this.#o.onTermsRequired();
      return;
    }
    if (code === RealtimeCloseCode.unauthenticated) {
      if (this.#refreshedSinceReady || !(await this.#o.refresh(this.#helloToken))) {
        this.stop();
        this.#o.onSignedOut?.();
        return;
      }
      this.#refreshedSinceReady = true;
      this.state.setState({ status: 'reconnecting' });
      void this.#connect();
      return;
    }
    this.#scheduleRetry();
  }

  #scheduleRetry(): void {
    if (!this.#running) return;
    const delay = backoffDelay(this.#attempt, this.#o.backoff ?? DEFAULT_BACKOFF, this.#o.random);
    this.#attempt += 1;
    this.state.setState({ status: 'reconnecting' });
    clearTimeout(this.#retryTimer);
    this.#retryTimer = setTimeout(() => void this.#connect(), delay);
  }

  #startHeartbeat(): void {
    clearInterval(this.#heartbeat);
    const every = this.#o.pingEveryMs ?? 25_000;
    const timeout = this.#o.pongTimeoutMs ?? 10_000;
    this.#heartbeat = setInterval(() => {
      const socket = this.#socket;
      if (!socket) return;
      if (Date.now() - this.#lastHeard > every + timeout) {
        this.#lost(socket, 'no answer to pings');
        return;
      }
      this.#send({ type: 'ping' });
    }, every);
  }

  /** Gives up a socket that stopped answering and retries. */
  #lost(socket: SocketLike, reason: string): void {
    if (socket !== this.#socket) return;
    this.#dropSocket(4000, reason);
    this.#scheduleRetry();
  }

  #dropSocket(code: number, reason: string): void {
    const socket = this.#socket;
    this.#socket = null;
    this.#ready = false;
    this.#stopTimers();
    if (!socket) return;
    socket.onclose = null;
    socket.onmessage = null;
    try {
      socket.close(code, reason);
    } catch {
      // Closing a socket that never opened may throw in some browsers; it is gone either way.
    }
  }

  #stopTimers(): void {
    this.#ready = false;
    clearInterval(this.#heartbeat);
    clearTimeout(this.#readyTimer);
  }

  #announcePresence(): void {
    if (!this.#ready) return;
    for (const room of this.#presentRooms) this.#send({ type: 'presence', room, state: 'here' });
  }

  #send(message: object): void {
    if (this.#socket?.readyState === OPEN) this.#socket.send(JSON.stringify(message));
  }
}
