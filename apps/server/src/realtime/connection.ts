import type { ServerMessage } from '@btalk/contracts';
import { RealtimeCloseCode } from '@btalk/contracts';
import type { WebSocket } from 'ws';
import type { AccessClaims } from '../auth/accessTokens.ts';
import type { UserRow } from '../db/schema.ts';
import type { DomainEventRecord } from '../events/eventLog.ts';
import { frameStream, textFrame, writeTextFrame } from './frames.ts';
import type { EventFilter } from './rooms.ts';
import type { Flushable, SlicedWrites } from './slicedWrites.ts';

/** Live events a connection holds while it catches up; more than this and it is a slow consumer. */
const MAX_QUEUED_EVENTS = 20_000;

/** How long a closing socket may take to finish its close handshake before it is cut. */
const CLOSE_GRACE_MS = 5000;

/** A message ready to be written: its frame, and its text for a socket whose frames `ws` builds. */
interface OutgoingMessage {
  text: string;
  frame: Buffer;
}

/** A domain event with its wire text and frame, serialised and framed once for every connection. */
export interface OutgoingEvent extends OutgoingMessage {
  event: DomainEventRecord;
}

/** An event ready to be sent to any number of sockets (each one a write of the same frame). */
export function outgoing(event: DomainEventRecord): OutgoingEvent {
  const text = eventText(event);
  return { event, text, frame: textFrame(text) };
}

/** The wire text of an event message: built once per event and sent to every subscriber as is. */
function eventText(event: DomainEventRecord): string {
  const message: ServerMessage = {
    type: 'event',
    seq: event.seq,
    room: event.room,
    name: event.type,
    payload: event.payload,
    actorId: event.actorId,
    createdAt: event.createdAt,
  };
  return JSON.stringify(message);
}

/**
 * One signed-in WebSocket. Events reach it in `seq` order, each once: while it catches up
 * (replay after `hello`, or re-evaluating its rooms after an access change) live events wait in a
 * queue, and anything at or below the last sent `seq` is dropped.
 */
export class Connection implements Flushable {
  readonly socket: WebSocket;
  user: UserRow;
  claims: AccessClaims;
  /** The rooms this connection receives (what the person may see). */
  rooms = new Set<string>();
  /** For some rooms, which of their events the person may receive (the rest: all). */
  filters = new Map<string, EventFilter>();
  /**
   * Whether the connection receives a room now: its own `rooms`, and for the hub also everyone's
   * rooms (organisation-wide topics), which no connection lists. Events that waited in the queue
   * are sent only from rooms it follows.
   */
  follows: (room: string) => boolean = (room) => this.rooms.has(room);
  /** The greatest `seq` sent on this socket. */
  sentSeq = 0;
  /** Answered the last heartbeat ping. */
  alive = true;
  closed = false;
  #queue: OutgoingEvent[] | null = null;
  #ops: Promise<void> = Promise.resolve();
  #pendingOps = 0;
  readonly #maxBufferedBytes: number;
  /** Where event frames are written (the socket's TCP stream), or null to `send` them. */
  readonly #stream: ReturnType<typeof frameStream>;
  /** Messages waiting for this socket's turn in the hub's sliced writes, in order. */
  readonly #pending: OutgoingMessage[] = [];
  readonly #writes: SlicedWrites;
  readonly #onFailure: (error: unknown) => void;

  constructor(
    socket: WebSocket,
    user: UserRow,
    claims: AccessClaims,
    maxBufferedBytes: number,
    writes: SlicedWrites,
    onFailure: (error: unknown) => void,
  ) {
    this.socket = socket;
    this.user = user;
    this.claims = claims;
    this.#maxBufferedBytes = maxBufferedBytes;
    this.#stream = frameStream(socket);
    this.#writes = writes;
    this.#onFailure = onFailure;
  }

  /** Not catching up: every event the hub fanned out in this connection's rooms has been sent. */
  get idle(): boolean {
    return this.#queue === null;
  }

  /**
   * A live event from the hub: sent in this socket's turn of the hub's sliced writes (the hub
   * starts them after its fan-out), or queued while the connection catches up.
   */
  deliver(item: OutgoingEvent): void {
    if (this.closed) return;
    if (this.#queue) {
      if (this.#queue.length >= MAX_QUEUED_EVENTS) {
        this.close(RealtimeCloseCode.slowConsumer, 'slow consumer: too many events waiting; reconnect');
        return;
      }
      this.#queue.push(item);
      return;
    }
    if (!this.#accept(item)) return;
    this.#pending.push(item);
    if (this.#pending.length === 1) this.#writes.add(this);
  }

  /**
   * Sends an event unless it was already sent (replay and live may both hold it) or the person may
   * not receive it (decided when it is sent, so a change of rights applies to what still waits).
   */
  sendEvent(item: OutgoingEvent): void {
    if (this.#accept(item)) this.#writeMessage(item);
  }

  /** Whether an event is to be sent on this socket; if so it counts as sent from now on. */
  #accept(item: OutgoingEvent): boolean {
    if (this.closed || item.event.seq <= this.sentSeq) return false;
    if (this.filters.size > 0 && this.filters.get(item.event.room)?.(item.event) === false) return false;
    this.sentSeq = item.event.seq;
    return true;
  }

  /** Writes the messages waiting for this socket's turn, in order, in one write. */
  writePending(): void {
    const pending = this.#pending;
    if (pending.length === 0) return;
    const many = pending.length > 1;
    try {
      if (many) this.#stream?.cork();
      if (!this.closed) {
        for (const item of pending) writeTextFrame(this.socket, this.#stream, item.frame, item.text);
      }
    } catch (error) {
      this.#onFailure(error);
    } finally {
      if (many) this.#stream?.uncork();
      pending.length = 0;
    }
    this.#checkBuffered();
  }

  /** Sends a message that is not a domain event (ready, pong, volatile...). */
  send(message: ServerMessage): void {
    if (!this.closed) this.#write(JSON.stringify(message));
  }

  /** Sends text already serialised (a volatile message shared by many sockets). */
  sendText(text: string): void {
    if (!this.closed) this.#write(text);
  }

  /** Writes a message now, or after the messages still waiting for this socket's turn. */
  #writeMessage(item: OutgoingMessage): void {
    if (this.#pending.length > 0) {
      this.#pending.push(item);
      return;
    }
    writeTextFrame(this.socket, this.#stream, item.frame, item.text);
    this.#checkBuffered();
  }

  /**
   * Runs `op` after any earlier one, holding live events in the queue from now until the last
   * pending op has finished; then sends what waited, in order, only from rooms still followed.
   * Starting the queue synchronously is what keeps an event after an access change from slipping
   * out before the change is applied.
   */
  runExclusive(op: () => Promise<void>): void {
    this.#queue ??= [];
    this.#pendingOps += 1;
    this.#ops = this.#ops
      .then(() => (this.closed ? undefined : op()))
      .catch((error: unknown) => this.#onFailure(error))
      .finally(() => {
        this.#pendingOps -= 1;
        if (this.#pendingOps === 0) this.#flush();
      });
  }

  /** Adds replayed events to what waits in the queue (only during `runExclusive`). */
  enqueueReplay(items: OutgoingEvent[]): void {
    this.#queue?.push(...items);
  }

  #flush(): void {
    const queued = this.#queue ?? [];
    this.#queue = null;
    queued.sort((a, b) => a.event.seq - b.event.seq);
    for (const item of queued) {
      if (this.follows(item.event.room)) this.sendEvent(item);
    }
  }

  #write(text: string): void {
    if (this.#pending.length > 0) this.#pending.push({ text, frame: textFrame(text) });
    else {
      this.socket.send(text);
      this.#checkBuffered();
    }
  }

  #checkBuffered(): void {
    if (this.socket.bufferedAmount > this.#maxBufferedBytes) {
      this.close(
        RealtimeCloseCode.slowConsumer,
        'slow consumer: the client did not read fast enough; reconnect to resume',
      );
    }
  }

  /** Closes with a code and reason; cuts the socket if the close handshake does not finish. */
  close(code: number, reason: string): void {
    if (this.closed) return;
    // What waits goes before the close frame (unless writing it found the client too slow).
    this.writePending();
    if (this.closed) return;
    this.closed = true;
    this.#queue = null;
    try {
      this.socket.close(code, reason.slice(0, 120));
    } catch {
      this.socket.terminate();
    }
    setTimeout(() => this.socket.terminate(), CLOSE_GRACE_MS).unref();
  }
}
