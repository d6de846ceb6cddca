import { AccessEventName } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { UserRow } from '../db/schema.ts';
import type { DomainEventRecord } from '../events/eventLog.ts';
import { callEventRooms, topicRooms } from './domainRooms.ts';

/**
 * Which connections must re-evaluate their rooms after an event: those that received it
 * (`audience`: the room's subscribers, e.g. a person removed from a topic gets the event in their
 * own room), or every connection (`everyone`: e.g. a topic became organisation-wide).
 */
export type AccessScope = 'audience' | 'everyone';

/** How one kind of room (`topic`, `user`, `callevent`) decides who may see it. */
export interface RoomKind {
  /** The ids (after `<kind>:`) of every room of this kind the person may see now. */
  visibleIds(db: Kysely<Database>, user: UserRow): Promise<string[]>;
  /** Whether the person may see one room of this kind. */
  canSee(db: Kysely<Database>, user: UserRow, id: string): Promise<boolean>;
  /** Whether an event (of any room) may change who sees rooms of this kind; null when it cannot. */
  accessChangedBy?(event: DomainEventRecord): AccessScope | null;
}

/**
 * Room access, by kind: each kind registers how to list and check its rooms, and which events
 * change access. The realtime stream asks it which rooms a connection follows.
 */
export class RoomRegistry {
  readonly #kinds = new Map<string, RoomKind>();

  /** Registers a kind of room; a kind is registered once. */
  register(kind: string, definition: RoomKind): this {
    if (!/^[a-z]+$/.test(kind)) throw new Error(`Room kind "${kind}" must be lower-case letters only.`);
    if (this.#kinds.has(kind)) throw new Error(`Room kind "${kind}" is already registered.`);
    this.#kinds.set(kind, definition);
    return this;
  }

  /** Every room (`<kind>:<id>`) the person may see now, over all kinds. */
  async visibleRooms(db: Kysely<Database>, user: UserRow): Promise<Set<string>> {
    const rooms = new Set<string>();
    for (const [kind, definition] of this.#kinds) {
      for (const id of await definition.visibleIds(db, user)) rooms.add(`${kind}:${id}`);
    }
    return rooms;
  }

  /** Whether the person may see a room; unknown kinds are never visible. */
  async canSee(db: Kysely<Database>, user: UserRow, room: string): Promise<boolean> {
    const colon = room.indexOf(':');
    const definition = colon > 0 ? this.#kinds.get(room.slice(0, colon)) : undefined;
    return definition ? definition.canSee(db, user, room.slice(colon + 1)) : false;
  }

  /** The widest re-evaluation any kind asks for after this event, or null. */
  accessChangedBy(event: DomainEventRecord): AccessScope | null {
    let scope: AccessScope | null = null;
    for (const definition of this.#kinds.values()) {
      const s = definition.accessChangedBy?.(event) ?? null;
      if (s === 'everyone') return s;
      if (s) scope = s;
    }
    return scope;
  }
}

/** Events in `user:<id>` after which the person's sockets are checked again (see contracts). */
const USER_ACCESS_EVENTS = new Set<string>(Object.values(AccessEventName));

/** `user:<id>`: a person's own room, seen only by that person. */
export const userRooms: RoomKind = {
  visibleIds: async (_db, user) => [user.id],
  canSee: async (_db, user, id) => user.id === id,
  accessChangedBy: (event) =>
    event.room.startsWith('user:') && USER_ACCESS_EVENTS.has(event.type) ? 'audience' : null,
};

/** The registry with every kind of room: a person's own, topics and call-tree events. */
export function createRoomRegistry(): RoomRegistry {
  return new RoomRegistry()
    .register('user', userRooms)
    .register('topic', topicRooms)
    .register('callevent', callEventRooms);
}
