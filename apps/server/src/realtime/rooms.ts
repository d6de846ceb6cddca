import { AccessEventName, SystemEventName } from '@btalk/contracts';
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

/** Which events of one room a person may receive (a room without one: all of them). */
export type EventFilter = (event: DomainEventRecord) => boolean;

/** What a person may receive: the rooms they see, and for some rooms which of their events. */
export interface RoomAccess {
  rooms: Set<string>;
  filters: Map<string, EventFilter>;
}

/** How one kind of room (`topic`, `user`, `callevent`) decides who may see it. */
export interface RoomKind {
  /** The ids (after `<kind>:`) of every room of this kind the person may see now. */
  visibleIds(db: Kysely<Database>, user: UserRow): Promise<string[]>;
  /** Whether the person may see one room of this kind. */
  canSee(db: Kysely<Database>, user: UserRow, id: string): Promise<boolean>;
  /**
   * For rooms (by id) of which the person may receive only some events, which ones; rooms left out
   * send them everything. The filters apply the same policy as the HTTP routes.
   */
  filters?(db: Kysely<Database>, user: UserRow, ids: string[]): Promise<Map<string, EventFilter>>;
  /** Whether an event (of any room) may change who sees rooms of this kind; null when it cannot. */
  accessChangedBy?(event: DomainEventRecord): AccessScope | null;
  /**
   * Rooms of this kind that everyone signed in sees (organisation-wide topics): the stream sends
   * them to every socket without a query per person, and `visibleIds` leaves them out.
   */
  everyoneIds?(db: Kysely<Database>): Promise<string[]>;
  /** Whether an event makes a room of this kind everyone's (true) or no longer (false); null: neither. */
  everyoneChangedBy?(event: DomainEventRecord): { id: string; everyone: boolean } | null;
  /**
   * Whether an event opens a room of this kind to some people, who are then found in one go
   * (`openedBy`) rather than by asking every socket again; sync, so most events cost nothing.
   */
  opens?(event: DomainEventRecord): boolean;
  /** The room an event opens and to whom (by id, and admins by role), with each one's filter. */
  openedBy?(db: Kysely<Database>, event: DomainEventRecord): Promise<OpenedRoom | null>;
}

/** A room an event opened to some people (`RoomKind.openedBy`). */
export interface OpenedRoom {
  room: string;
  /** The people who now see it. */
  userIds: ReadonlySet<string>;
  /** Whether every admin sees it too. */
  admins: boolean;
  /** Which of its events each of them may receive (undefined: all). */
  filterFor(user: UserRow): EventFilter | undefined;
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

  /** Every room the person may see now, and which events of each they may receive. */
  async access(db: Kysely<Database>, user: UserRow): Promise<RoomAccess> {
    const rooms = new Set<string>();
    const filters = new Map<string, EventFilter>();
    for (const [kind, definition] of this.#kinds) {
      const ids = await definition.visibleIds(db, user);
      for (const id of ids) rooms.add(`${kind}:${id}`);
      if (!definition.filters || ids.length === 0) continue;
      for (const [id, filter] of await definition.filters(db, user, ids))
        filters.set(`${kind}:${id}`, filter);
    }
    return { rooms, filters };
  }

  /** Every room everyone signed in sees now, over all kinds. */
  async everyoneRooms(db: Kysely<Database>): Promise<Set<string>> {
    const rooms = new Set<string>();
    for (const [kind, definition] of this.#kinds) {
      for (const id of (await definition.everyoneIds?.(db)) ?? []) rooms.add(`${kind}:${id}`);
    }
    return rooms;
  }

  /** The room an event makes everyone's, or no longer, if any. */
  everyoneChangedBy(event: DomainEventRecord): { room: string; everyone: boolean } | null {
    for (const [kind, definition] of this.#kinds) {
      const change = definition.everyoneChangedBy?.(event);
      if (change) return { room: `${kind}:${change.id}`, everyone: change.everyone };
    }
    return null;
  }

  /** The kind whose room this event opens to some people, if any (sync: a cheap check per event). */
  opener(event: DomainEventRecord): RoomKind | null {
    for (const definition of this.#kinds.values()) if (definition.opens?.(event)) return definition;
    return null;
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

/**
 * `system`: events about everyone's access, followed by nobody (a new terms version: every socket
 * checks its person again, and closes unless they accept it).
 */
export const systemRooms: RoomKind = {
  visibleIds: async () => [],
  canSee: async () => false,
  accessChangedBy: (event) => (event.type === SystemEventName.termsPublished ? 'everyone' : null),
};

/** The registry with every kind of room: a person's own, topics and call-tree events. */
export function createRoomRegistry(): RoomRegistry {
  return new RoomRegistry()
    .register('system', systemRooms)
    .register('user', userRooms)
    .register('topic', topicRooms)
    .register('callevent', callEventRooms);
}
