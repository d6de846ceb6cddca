import type { PresenceMessage, TypingMessage, VolatileMessage } from '@btalk/contracts';
import type { Connection } from './connection.ts';

/** At most one typing signal per person, room and connection in this window. */
export const TYPING_THROTTLE_MS = 2000;
/** A repeated "here" is relayed at most this often; clients repeat it at least every 30 s. */
export const PRESENCE_THROTTLE_MS = 10_000;
/** A person counts as present this long after their last "here". */
export const PRESENCE_TTL_MS = 65_000;

interface Present {
  displayName: string;
  expiresAt: number;
}

/** Where volatile messages go: this instance's sockets in a room, and the other instances. */
export interface VolatileOutlet {
  /** Connections on this instance that follow a room. */
  subscribers(room: string): Iterable<Connection>;
  /** Tells the other instances. */
  publish(message: VolatileMessage): void;
}

/**
 * Typing and presence: relayed to the room's other people, throttled, never stored or replayed.
 * Each instance keeps a short-lived mirror of who is present (from its own sockets and from the
 * other instances' messages), so that a newcomer gets a snapshot at once.
 */
export class VolatileRelay {
  readonly #outlet: VolatileOutlet;
  readonly #present = new Map<string, Map<string, Present>>();
  /** Last relay time per connection and `kind|room`. */
  readonly #lastSent = new WeakMap<Connection, Map<string, number>>();
  /** Rooms each local connection said it is in. */
  readonly #here = new WeakMap<Connection, Set<string>>();

  constructor(outlet: VolatileOutlet) {
    this.#outlet = outlet;
  }

  /** A typing message from a local connection, already checked to be in one of its rooms. */
  typing(from: Connection, message: TypingMessage): void {
    if (this.#throttled(from, `typing|${message.room}`, TYPING_THROTTLE_MS)) return;
    this.#relay({
      type: 'volatile',
      kind: 'typing',
      room: message.room,
      userId: from.user.id,
      displayName: from.user.display_name,
    });
  }

  /** A presence message from a local connection, already checked to be in one of its rooms. */
  presence(from: Connection, message: PresenceMessage, nowMs = Date.now()): void {
    let rooms = this.#here.get(from);
    if (!rooms) {
      rooms = new Set();
      this.#here.set(from, rooms);
    }
    if (message.state === 'left') {
      if (!rooms.delete(message.room)) return;
      this.#lastSent.get(from)?.delete(`presence|${message.room}`);
      this.#leave(from, message.room);
      return;
    }
    const arriving = !rooms.has(message.room);
    rooms.add(message.room);
    this.#remember(message.room, from.user.id, from.user.display_name, nowMs);
    if (arriving) {
      from.send({ type: 'presenceSnapshot', room: message.room, people: this.present(message.room, nowMs) });
    }
    if (!arriving && this.#throttled(from, `presence|${message.room}`, PRESENCE_THROTTLE_MS, nowMs)) return;
    if (arriving) this.#throttled(from, `presence|${message.room}`, PRESENCE_THROTTLE_MS, nowMs);
    this.#relay({
      type: 'volatile',
      kind: 'presence',
      room: message.room,
      userId: from.user.id,
      displayName: from.user.display_name,
      state: 'here',
    });
  }

  /** A connection closed or lost rooms: it has left those it was present in. */
  forget(connection: Connection, stillVisible?: Set<string>): void {
    const rooms = this.#here.get(connection);
    if (!rooms) return;
    for (const room of [...rooms]) {
      if (stillVisible?.has(room)) continue;
      rooms.delete(room);
      this.#leave(connection, room);
    }
  }

  /** A volatile message from another instance: mirror presence, deliver to local sockets. */
  fromElsewhere(message: VolatileMessage, nowMs = Date.now()): void {
    if (message.kind === 'presence') {
      if (message.state === 'left') this.#present.get(message.room)?.delete(message.userId);
      else this.#remember(message.room, message.userId, message.displayName, nowMs);
    }
    this.#deliverLocally(message);
  }

  /** Who is present in a room now. */
  present(room: string, nowMs = Date.now()): Array<{ userId: string; displayName: string }> {
    const people = this.#present.get(room);
    if (!people) return [];
    const result: Array<{ userId: string; displayName: string }> = [];
    for (const [userId, p] of people) {
      if (p.expiresAt <= nowMs) people.delete(userId);
      else result.push({ userId, displayName: p.displayName });
    }
    if (people.size === 0) this.#present.delete(room);
    return result;
  }

  #leave(from: Connection, room: string): void {
    // Another tab of the same person on this instance still shows the room: they have not left.
    for (const other of this.#outlet.subscribers(room)) {
      if (other !== from && other.user.id === from.user.id && this.#here.get(other)?.has(room)) return;
    }
    this.#present.get(room)?.delete(from.user.id);
    this.#relay({
      type: 'volatile',
      kind: 'presence',
      room,
      userId: from.user.id,
      displayName: from.user.display_name,
      state: 'left',
    });
  }

  #remember(room: string, userId: string, displayName: string, nowMs: number): void {
    let people = this.#present.get(room);
    if (!people) {
      people = new Map();
      this.#present.set(room, people);
    }
    people.set(userId, { displayName, expiresAt: nowMs + PRESENCE_TTL_MS });
  }

  #throttled(from: Connection, key: string, windowMs: number, nowMs = Date.now()): boolean {
    let last = this.#lastSent.get(from);
    if (!last) {
      last = new Map();
      this.#lastSent.set(from, last);
    }
    const previous = last.get(key);
    if (previous !== undefined && nowMs - previous < windowMs) return true;
    last.set(key, nowMs);
    return false;
  }

  #relay(message: VolatileMessage): void {
    this.#deliverLocally(message);
    this.#outlet.publish(message);
  }

  #deliverLocally(message: VolatileMessage): void {
    const text = JSON.stringify(message);
    for (const connection of this.#outlet.subscribers(message.room)) {
      // People do not see their own typing or presence echoed back.
      if (connection.user.id !== message.userId) connection.sendText(text);
    }
  }
}
