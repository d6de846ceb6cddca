import { timingSafeEqual } from 'node:crypto';
import {
  AccessEventName,
  ClientMessage,
  HelloMessage,
  RealtimeCloseCode,
  SystemEventName,
  type VolatileMessage,
} from '@btalk/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import { assertStillSignedIn, personForAccessToken } from '../auth/authenticate.ts';
import { hasAcceptedCurrentTerms } from '../auth/termsGate.ts';
import type { AppContext } from '../context.ts';
import type { DomainEventRecord } from '../events/eventLog.ts';
import { AppError } from '../http/errors.ts';
import { Connection, outgoing } from './connection.ts';
import { HeartbeatSlices } from './heartbeat.ts';
import { RealtimeLimits } from './limits.ts';
import {
  countEventsBetween,
  eventsAfter,
  eventsBetween,
  headSeq,
  prunedThrough,
  pruneEvents,
} from './log.ts';
import type { RoomKind } from './rooms.ts';
import { type ClusterSignal, LocalSignal, RedisSignal } from './signal.ts';
import { SlicedWrites } from './slicedWrites.ts';
import { VolatileRelay } from './volatile.ts';

/** Events read from the log per query. */
const PAGE = 500;
/** A client further behind than this in its rooms refetches instead of replaying. */
export const MAX_REPLAY_EVENTS = 5000;
/** Heartbeat ticks per interval, each pinging a slice of the sockets (see `HeartbeatSlices`). */
const HEARTBEAT_SLICES = 10;
/** Sockets written per turn of the event loop when fanning out (see `SlicedWrites`). */
const WRITE_SLICE = 1024;
/** How often retention runs. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;
/** The close reason of 1001: the client reconnects (to another instance) and resumes. */
const GOING_AWAY_REASON = 'server is shutting down; reconnect';
/** A socket closed before its hello is cut if the close handshake takes longer. */
const CLOSE_HANDSHAKE_MS = 5000;

function sameKey(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The realtime stream of one server instance. It reads new events from the log once per wake-up
 * (a local commit, another instance's Redis signal, or the poll) for all connections, and fans each
 * out, serialised once, to the sockets that follow its room.
 */
export class RealtimeHub {
  readonly #ctx: AppContext;
  readonly #log: FastifyBaseLogger;
  readonly #signal: ClusterSignal;
  readonly #volatile: VolatileRelay;
  readonly #limits: RealtimeLimits;
  readonly #rooms = new Map<string, Set<Connection>>();
  readonly #connections = new Set<Connection>();
  /** Every open socket, signed in or still before its `hello`, to close them all when stopping. */
  readonly #sockets = new Set<WebSocket>();
  /** Each person's sockets on this instance, to open a room to many people at once. */
  readonly #byUser = new Map<string, Set<Connection>>();
  readonly #heartbeats = new HeartbeatSlices<Connection>(HEARTBEAT_SLICES);
  readonly #writes = new SlicedWrites(WRITE_SLICE);
  /**
   * Rooms everyone signed in sees (organisation-wide topics): sent to every socket, kept up to date
   * from the log's events, so creating one costs no query per socket.
   */
  #everyone = new Set<string>();
  readonly #timers: NodeJS.Timeout[] = [];
  #unsubscribeBus: () => void = () => {};
  #untrackMetrics: () => void = () => {};
  /** The greatest `seq` read from the log and fanned out. */
  position = 0;
  #reading = false;
  #headKnown = false;
  #wakeAgain = false;
  #stopped = false;

  constructor(ctx: AppContext, log: FastifyBaseLogger) {
    this.#ctx = ctx;
    this.#log = log;
    this.#signal = ctx.config.redisUrl ? new RedisSignal(ctx.config.redisUrl, log) : new LocalSignal();
    this.#limits = new RealtimeLimits(ctx.config.realtime);
    this.#volatile = new VolatileRelay({
      subscribers: (room) => this.#subscribers(room),
      publish: (message) => this.#signal.publishVolatile(message),
    });
  }

  /** Starts from the log's head: a new instance owes nothing to connections it does not have yet. */
  async start(): Promise<void> {
    const { config } = this.#ctx;
    // A database that is not reachable (or not migrated) yet must not stop the server from starting:
    // the first successful read finds the head instead.
    await this.#findHead().catch((error: unknown) =>
      this.#log.warn({ err: error }, 'realtime: the event log is not readable yet; retrying'),
    );
    // Scrapes read the sockets and the position (metrics/metrics.ts).
    this.#untrackMetrics = this.#ctx.metrics.trackHub(this);
    this.#unsubscribeBus = this.#ctx.bus.onCommitted(() => {
      this.wake();
      this.#signal.publishCommitted();
    });
    this.#signal.onCommitted(() => this.wake());
    this.#signal.onVolatile((message: VolatileMessage) => this.#volatile.fromElsewhere(message));
    this.#timers.push(
      setInterval(() => this.wake(), config.realtime.pollMs),
      setInterval(() => this.#heartbeat(), config.realtime.heartbeatMs / HEARTBEAT_SLICES),
      setInterval(() => void this.prune(), PRUNE_EVERY_MS),
    );
    for (const timer of this.#timers) timer.unref();
    void this.prune();
  }

  async #findHead(): Promise<void> {
    const head = await headSeq(this.#ctx.db.kysely);
    // Not past what is on disk (a SQLite batch between its COMMIT and its fsync is sent live later).
    const durable = this.#ctx.db.durableEventSeq?.();
    const position = durable === undefined ? head : Math.min(head, Math.max(durable, 0));
    // After the head: a room that changes meanwhile is also changed by an event after it.
    this.#everyone = await this.#ctx.rooms.everyoneRooms(this.#ctx.db.kysely);
    this.position = position;
    if (!this.#headKnown) this.#ctx.stream.attach(() => this.position);
    this.#headKnown = true;
  }

  /** The sockets of a room: every socket for everyone's rooms, else those that follow it. */
  #subscribers(room: string): Iterable<Connection> {
    return this.#everyone.has(room) ? this.#connections : (this.#rooms.get(room) ?? []);
  }

  /** Whether a socket receives a room. */
  #follows(connection: Connection, room: string): boolean {
    return connection.rooms.has(room) || this.#everyone.has(room);
  }

  /** Rooms to replay for a socket: its own and everyone's. */
  #replayRooms(connection: Connection): string[] {
    return [...connection.rooms, ...this.#everyone];
  }

  /** Number of signed-in sockets on this instance. */
  get connectionCount(): number {
    return this.#connections.size;
  }

  /** Number of open sockets on this instance, signed in or still before their `hello`. */
  get socketCount(): number {
    return this.#sockets.size;
  }

  /** Deletes events past retention (any instance may; it is idempotent). */
  async prune(nowMs = Date.now()): Promise<number> {
    try {
      return await pruneEvents(this.#ctx.db.kysely, this.#ctx.config.realtime.retentionDays, nowMs);
    } catch (error) {
      if (!this.#stopped) this.#log.warn({ err: error }, 'realtime: pruning the event log failed');
      return 0;
    }
  }

  /** Reads the log now (coalesced: one reader at a time, and once more if woken meanwhile). */
  wake(): void {
    if (this.#stopped) return;
    if (this.#reading) {
      this.#wakeAgain = true;
      return;
    }
    this.#reading = true;
    void this.#read().finally(() => {
      this.#reading = false;
    });
  }

  async #read(): Promise<void> {
    do {
      this.#wakeAgain = false;
      let events: DomainEventRecord[];
      try {
        if (!this.#headKnown) await this.#findHead();
        do {
          events = await eventsAfter(
            this.#ctx.db.kysely,
            this.position,
            PAGE,
            this.#ctx.db.durableEventSeq?.(),
          );
          for (const event of events) {
            // A room this event opens (a started call-tree event, to its audience) is opened first,
            // in one go, so the event itself reaches everyone it concerns.
            const opener = this.#ctx.rooms.opener(event);
            if (opener) {
              this.#writes.start();
              await this.#open(opener, event);
            }
            this.#dispatch(event);
          }
          // The page's events reach each socket in one write, a slice of sockets per turn.
          this.#writes.start();
        } while (events.length === PAGE && !this.#stopped);
      } catch (error) {
        // The next commit or poll tries again from the same position: nothing is skipped.
        if (!this.#stopped) this.#log.warn({ err: error }, 'realtime: reading the event log failed');
        this.#writes.start();
        return;
      }
    } while (this.#wakeAgain && !this.#stopped);
  }

  /** Opens the room an event opens to the sockets of its people (and admins), with their filters. */
  async #open(opener: RoomKind, event: DomainEventRecord): Promise<void> {
    const opened = await opener.openedBy?.(this.#ctx.db.kysely, event);
    if (!opened) return;
    const add = (connection: Connection) => {
      if (connection.closed || connection.rooms.has(opened.room)) return;
      const filter = opened.filterFor(connection.user);
      if (filter) connection.filters.set(opened.room, filter);
      else connection.filters.delete(opened.room);
      connection.rooms.add(opened.room);
      let set = this.#rooms.get(opened.room);
      if (!set) {
        set = new Set();
        this.#rooms.set(opened.room, set);
      }
      set.add(connection);
    };
    for (const userId of opened.userIds)
      for (const connection of this.#byUser.get(userId) ?? []) add(connection);
    if (opened.admins) {
      for (const connection of this.#connections) if (connection.user.role === 'admin') add(connection);
    }
  }

  #dispatch(event: DomainEventRecord): void {
    this.position = event.seq;
    const change = this.#ctx.rooms.everyoneChangedBy(event);
    if (change?.everyone) this.#everyone.add(change.room);
    else if (change) this.#everyone.delete(change.room);
    const subscribers = this.#subscribers(event.room);
    const item = outgoing(event);
    for (const connection of subscribers) connection.deliver(item);
    // Its first slice of sockets is written in this turn (SlicedWrites): the lag up to here.
    this.#ctx.metrics.delivered(event.createdAt);
    const scope = this.#ctx.rooms.accessChangedBy(event);
    if (scope === 'everyone') {
      for (const connection of this.#connections) this.#reevaluate(connection, event);
    } else if (scope === 'audience') {
      for (const connection of [...(this.#rooms.get(event.room) ?? [])]) this.#reevaluate(connection, event);
    }
  }

  /** Re-checks a connection's person and rooms after `event`; events after it wait meanwhile. */
  #reevaluate(connection: Connection, event: DomainEventRecord): void {
    connection.runExclusive(async () => {
      const user = await this.#ctx.db.kysely
        .selectFrom('users')
        .selectAll()
        .where('id', '=', connection.user.id)
        .executeTakeFirst();
      try {
        assertStillSignedIn(user, connection.claims);
      } catch (error) {
        this.#closeUnauthenticated(connection, error);
        return;
      }
      const payload = event.payload as { sessionId?: unknown } | null;
      if (
        event.type === AccessEventName.sessionEnded &&
        event.room === `user:${user.id}` &&
        payload?.sessionId === connection.claims.sid
      ) {
        connection.close(RealtimeCloseCode.unauthenticated, 'session ended: sign in again');
        return;
      }
      if (event.type === SystemEventName.termsPublished) {
        // Another instance published: its version counts from now here too, not after the cache's TTL.
        const version = (event.payload as { version?: unknown } | null)?.version;
        if (typeof version === 'number') this.#ctx.terms.published(version);
      }
      // No data before the terms are accepted, over the socket as over HTTP.
      if (!(await hasAcceptedCurrentTerms(this.#ctx.terms, user))) {
        connection.close(RealtimeCloseCode.termsNotAccepted, 'new terms of use: accept them to continue');
        return;
      }
      connection.user = user;
      const before = connection.rooms;
      const { rooms, filters } = await this.#ctx.rooms.access(this.#ctx.db.kysely, user);
      const added = [...rooms].filter((r) => !before.has(r));
      this.#setRooms(connection, rooms);
      connection.filters = filters;
      // Events of newly visible rooms that went by while we looked: replay them (up to what the hub
      // has fanned out; later ones arrive live through the queue).
      const upto = this.position;
      let after = event.seq;
      for (;;) {
        const page = await eventsBetween(this.#ctx.db.kysely, added, after, upto, PAGE);
        connection.enqueueReplay(page.map(outgoing));
        if (page.length < PAGE) break;
        after = page.at(-1)!.seq;
      }
    });
  }

  #setRooms(connection: Connection, rooms: Set<string>): void {
    for (const room of connection.rooms) {
      if (!rooms.has(room)) this.#rooms.get(room)?.delete(connection);
    }
    this.#volatile.forget(connection, new Set([...rooms, ...this.#everyone]));
    for (const room of rooms) {
      let set = this.#rooms.get(room);
      if (!set) {
        set = new Set();
        this.#rooms.set(room, set);
      }
      set.add(connection);
    }
    for (const room of connection.rooms) {
      if (!rooms.has(room) && this.#rooms.get(room)?.size === 0) this.#rooms.delete(room);
    }
    connection.rooms = rooms;
  }

  #closeUnauthenticated(connection: Connection, error: unknown): void {
    const reason = error instanceof AppError ? error.message : 'not signed in';
    connection.close(RealtimeCloseCode.unauthenticated, reason);
  }

  /** Takes a new socket: waits for `hello`, then streams. */
  accept(socket: WebSocket): void {
    if (this.#stopped) {
      socket.close(RealtimeCloseCode.goingAway, GOING_AWAY_REASON);
      return;
    }
    this.#sockets.add(socket);
    let connection: Connection | null = null;
    let helloSeen = false;
    let expiry: NodeJS.Timeout | undefined;
    const helloDeadline = setTimeout(() => {
      socket.close(
        RealtimeCloseCode.badHello,
        'send {"type":"hello",...} first, within the heartbeat interval',
      );
    }, this.#ctx.config.realtime.heartbeatMs);
    helloDeadline.unref();

    const armExpiry = (c: Connection) => {
      clearTimeout(expiry);
      expiry = setTimeout(
        () =>
          c.close(
            RealtimeCloseCode.unauthenticated,
            'access token expired: send {"type":"token"} with a fresh one before expiry, or reconnect',
          ),
        Math.max(0, c.claims.exp * 1000 - Date.now()),
      );
      expiry.unref();
    };

    socket.on('pong', () => {
      if (connection) connection.alive = true;
    });
    socket.on('close', () => {
      this.#sockets.delete(socket);
      clearTimeout(helloDeadline);
      clearTimeout(expiry);
      if (connection) this.#remove(connection);
    });
    socket.on('error', () => {
      // The 'close' event follows; nothing else to do for a broken socket.
    });
    socket.on('message', (data: RawData, isBinary: boolean) => {
      if (connection && !this.#limits.allowMessage(connection)) return;
      let parsed: unknown;
      try {
        parsed = isBinary ? undefined : JSON.parse(data.toString());
      } catch {
        parsed = undefined;
      }
      if (!helloSeen) {
        helloSeen = true;
        clearTimeout(helloDeadline);
        const hello = HelloMessage.safeParse(parsed);
        if (!hello.success) {
          socket.close(
            RealtimeCloseCode.badHello,
            'the first message must be {"type":"hello","token","apiKey","lastSeq"}',
          );
          return;
        }
        void this.#hello(socket, hello.data).then((c) => {
          connection = c;
          if (c) armExpiry(c);
        });
        return;
      }
      if (!connection) return; // Still authenticating: a well-behaved client waits for `ready`.
      const message = ClientMessage.safeParse(parsed);
      if (!message.success) {
        connection.send({
          type: 'error',
          reason: 'badMessage',
          message: 'not a realtime client message (see contracts realtime.ts)',
        });
        return;
      }
      const c = connection;
      const m = message.data;
      switch (m.type) {
        case 'ping':
          // Only claim what this connection has been sent or will never need.
          c.send({ type: 'pong', seq: Math.max(c.sentSeq, c.idle ? this.position : 0) });
          break;
        case 'token':
          void this.#refreshToken(c, m.token).then((ok) => {
            if (ok) armExpiry(c);
          });
          break;
        case 'typing':
        case 'presence':
          if (!this.#follows(c, m.room)) {
            c.send({ type: 'error', reason: 'forbiddenRoom', message: `You do not follow ${m.room}.` });
          } else if (m.type === 'typing') this.#volatile.typing(c, m);
          else this.#volatile.presence(c, m);
          break;
        case 'hello':
          c.send({ type: 'error', reason: 'badMessage', message: 'hello is only the first message' });
          break;
      }
    });
  }

  async #hello(socket: WebSocket, hello: HelloMessage): Promise<Connection | null> {
    if (!sameKey(hello.apiKey, this.#ctx.config.apiKey)) {
      socket.close(RealtimeCloseCode.unauthenticated, "apiKey is not this server's client key");
      return null;
    }
    let person: Awaited<ReturnType<typeof personForAccessToken>>;
    try {
      person = await personForAccessToken(this.#ctx, hello.token);
    } catch (error) {
      if (error instanceof AppError) socket.close(RealtimeCloseCode.unauthenticated, error.message);
      else {
        // Not the client's fault (e.g. the database is away): it should simply reconnect.
        this.#log.error({ err: error }, 'realtime: checking a token failed');
        socket.close(1011, 'the server could not check the token; reconnect');
      }
      return null;
    }
    // No data before the terms are accepted, over the socket as over HTTP.
    if (!(await hasAcceptedCurrentTerms(this.#ctx.terms, person.user))) {
      socket.close(RealtimeCloseCode.termsNotAccepted, 'accept the current terms of use first');
      return null;
    }
    if (socket.readyState !== socket.OPEN || this.#stopped) return null;
    if (!this.#headKnown) {
      socket.close(1011, 'the server cannot read its event log yet; reconnect');
      return null;
    }
    if (!this.#limits.admit(person.user.id, socket)) return null;
    const connection = new Connection(
      socket,
      person.user,
      person.claims,
      this.#ctx.config.realtime.maxBufferedBytes,
      this.#writes,
      (error) => {
        this.#log.error({ err: error }, 'realtime: a connection failed');
        connection.close(1011, 'server error; reconnect');
      },
    );
    // Everyone's rooms too: an event of an organisation-wide topic that waits while the socket
    // catches up (its replay after hello) must not be dropped when the queue is sent.
    connection.follows = (room) => this.#follows(connection, room);
    this.#connections.add(connection);
    this.#heartbeats.add(connection);
    let mine = this.#byUser.get(connection.user.id);
    if (!mine) {
      mine = new Set();
      this.#byUser.set(connection.user.id, mine);
    }
    mine.add(connection);
    connection.runExclusive(async () => {
      const db = this.#ctx.db.kysely;
      const { rooms, filters } = await this.#ctx.rooms.access(db, connection.user);
      this.#setRooms(connection, rooms);
      connection.filters = filters;
      // From here on live events queue up on the connection; the replay covers up to `start`.
      const start = this.position;
      const last = hello.lastSeq;
      const resync = (reason: 'retention' | 'tooFarBehind' | 'unknownSeq') => {
        connection.sentSeq = start;
        connection.send({ type: 'resync', reason, seq: start });
      };
      if (last === null) {
        connection.sentSeq = start;
      } else if (last < (await prunedThrough(db))) {
        resync('retention');
      } else if (last > start && last > (await headSeq(db))) {
        resync('unknownSeq');
      } else if (
        (await countEventsBetween(db, this.#replayRooms(connection), last, start, MAX_REPLAY_EVENTS + 1)) >
        MAX_REPLAY_EVENTS
      ) {
        resync('tooFarBehind');
      } else {
        connection.sentSeq = last;
        let after = last;
        for (;;) {
          const page = await eventsBetween(db, this.#replayRooms(connection), after, start, PAGE);
          for (const event of page) connection.sendEvent(outgoing(event));
          if (page.length < PAGE || connection.closed) break;
          after = page.at(-1)!.seq;
        }
        // Nothing in these rooms up to `start` is left unsent.
        connection.sentSeq = Math.max(connection.sentSeq, start);
      }
      connection.send({ type: 'ready', seq: connection.sentSeq, userId: connection.user.id });
    });
    return connection;
  }

  async #refreshToken(connection: Connection, token: string): Promise<boolean> {
    try {
      const { user, claims } = await personForAccessToken(this.#ctx, token);
      if (user.id !== connection.user.id) {
        connection.send({
          type: 'error',
          reason: 'badToken',
          message: 'The token belongs to another person: open a new connection to switch people.',
        });
        return false;
      }
      connection.claims = claims;
      connection.user = user;
      connection.send({ type: 'tokenAccepted', expiresAt: new Date(claims.exp * 1000).toISOString() });
      return true;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      connection.send({ type: 'error', reason: 'badToken', message: error.message });
      return false;
    }
  }

  #heartbeat(): void {
    for (const connection of this.#heartbeats.next()) {
      if (!connection.alive) {
        // No pong since the last ping: the peer is gone; a close frame would never arrive.
        connection.closed = true;
        connection.socket.terminate();
        continue;
      }
      connection.alive = false;
      connection.socket.ping();
    }
  }

  #remove(connection: Connection): void {
    connection.closed = true;
    if (this.#connections.delete(connection)) this.#limits.release(connection.user.id);
    this.#heartbeats.delete(connection);
    const mine = this.#byUser.get(connection.user.id);
    mine?.delete(connection);
    if (mine?.size === 0) this.#byUser.delete(connection.user.id);
    this.#volatile.forget(connection);
    for (const room of connection.rooms) {
      const set = this.#rooms.get(room);
      set?.delete(connection);
      if (set?.size === 0) this.#rooms.delete(room);
    }
  }

  /**
   * Stops reading and accepting, and closes every socket with "going away" (1001), so that clients
   * reconnect (through the load balancer, to another instance) and resume from their last `seq`.
   * Commits of requests still in flight are still signalled to the other instances.
   */
  drain(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    for (const timer of this.#timers) clearInterval(timer);
    for (const connection of this.#connections) {
      connection.close(RealtimeCloseCode.goingAway, GOING_AWAY_REASON);
    }
    // Sockets still before (or in) their hello: no Connection yet to close them.
    for (const socket of this.#sockets) {
      if (socket.readyState !== socket.OPEN) continue;
      socket.close(RealtimeCloseCode.goingAway, GOING_AWAY_REASON);
      setTimeout(() => socket.terminate(), CLOSE_HANDSHAKE_MS).unref();
    }
  }

  /** Drains, then leaves the cluster signal: the last step, once no request is in flight. */
  async stop(): Promise<void> {
    this.drain();
    this.#ctx.stream.detach();
    this.#unsubscribeBus();
    this.#untrackMetrics();
    await this.#signal.close();
  }
}
