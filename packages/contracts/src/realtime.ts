import { z } from 'zod';
import { RealtimeMessageType } from './realtimeCodes.ts';

export { RealtimeCloseCode, RealtimeMessageType } from './realtimeCodes.ts';

/** The volatile kinds of event: never stored, never replayed. */
export const VolatileKind = z.enum(['typing', 'presence']);
export type VolatileKind = z.infer<typeof VolatileKind>;

/** A room name: `<kind>:<id>`, e.g. `topic:0192...`, `user:0192...`. */
export const RoomName = z
  .string()
  .regex(/^[a-z]+:[\w-]{1,64}$/, { message: 'must be <kind>:<id>, e.g. topic:<id>' });

/** Client's first message. */
export const HelloMessage = z.object({
  type: z.literal(RealtimeMessageType.hello),
  /** The product access token (as in `Authorization: Bearer`). */
  token: z.string().min(1),
  /** The web client's key (what other requests send as `x-api-key`). */
  apiKey: z.string().min(1),
  /** The last event sequence number this client saw, or null to start from now. */
  lastSeq: z.number().int().nonnegative().nullable(),
});
export type HelloMessage = z.infer<typeof HelloMessage>;

/** A fresh access token, sent over the open socket. */
export const TokenMessage = z.object({
  type: z.literal(RealtimeMessageType.token),
  /** The new access token; it must belong to the same person. */
  token: z.string().min(1),
});
export type TokenMessage = z.infer<typeof TokenMessage>;

/** The sender is typing in a room it may see. */
export const TypingMessage = z.object({
  type: z.literal(RealtimeMessageType.typing),
  /** The room, e.g. `topic:<id>`. */
  room: RoomName,
});
export type TypingMessage = z.infer<typeof TypingMessage>;

/** The sender is looking at a room (`here`, repeated at least every 30 s) or has left it. */
export const PresenceMessage = z.object({
  type: z.literal(RealtimeMessageType.presence),
  /** The room, e.g. `topic:<id>`. */
  room: RoomName,
  /** `here` while the room is on screen, `left` when it no longer is. */
  state: z.enum(['here', 'left']),
});
export type PresenceMessage = z.infer<typeof PresenceMessage>;

/** Application-level ping. */
export const PingMessage = z.object({
  type: z.literal(RealtimeMessageType.ping),
});
export type PingMessage = z.infer<typeof PingMessage>;

/** Any message a client sends after `hello`. */
export const ClientMessage = z.discriminatedUnion('type', [
  HelloMessage,
  TokenMessage,
  TypingMessage,
  PresenceMessage,
  PingMessage,
]);
export type ClientMessage = z.infer<typeof ClientMessage>;

/** Replay is complete; events with a greater `seq` follow live. */
export const ReadyMessage = z.object({
  type: z.literal(RealtimeMessageType.ready),
  /** The newest sequence number the client is now up to date with (keep it to resume). */
  seq: z.number().int().nonnegative(),
  /** The signed-in person. */
  userId: z.string(),
});
export type ReadyMessage = z.infer<typeof ReadyMessage>;

/** One domain event, replayed or live. Sent once per connection, in `seq` order. */
export const EventMessage = z.object({
  type: z.literal(RealtimeMessageType.event),
  /** Sequence number: keep the greatest seen and send it as `lastSeq` when reconnecting. */
  seq: z.number().int().positive(),
  /** The room the event belongs to. */
  room: z.string(),
  /** The event's name, e.g. `post.created`. */
  name: z.string(),
  /** The event's data (a plain object; its shape depends on `name`). */
  payload: z.unknown(),
  /** Who caused it, if a person did. */
  actorId: z.string().nullable(),
  /** When it was recorded (ISO-8601). */
  createdAt: z.string(),
});
export type EventMessage = z.infer<typeof EventMessage>;

/** The client's `lastSeq` is older than what the server keeps (or unknown to it): refetch. */
export const ResyncMessage = z.object({
  type: z.literal(RealtimeMessageType.resync),
  /** Why: `retention` (older than the log keeps), `tooFarBehind`, or `unknownSeq`. */
  reason: z.enum(['retention', 'tooFarBehind', 'unknownSeq']),
  /** Resume from here after refetching. */
  seq: z.number().int().nonnegative(),
});
export type ResyncMessage = z.infer<typeof ResyncMessage>;

/** Another person's typing or presence in a room. */
export const VolatileMessage = z.object({
  type: z.literal(RealtimeMessageType.volatile),
  /** `typing` or `presence`. */
  kind: VolatileKind,
  /** The room it happened in. */
  room: z.string(),
  /** The person. */
  userId: z.string(),
  /** The person's name, to show without a lookup. */
  displayName: z.string(),
  /** For presence: `here` or `left`; absent for typing. */
  state: z.enum(['here', 'left']).optional(),
});
export type VolatileMessage = z.infer<typeof VolatileMessage>;

/** The people present in a room now (the receiver included). */
export const PresenceSnapshotMessage = z.object({
  type: z.literal(RealtimeMessageType.presenceSnapshot),
  /** The room. */
  room: z.string(),
  /** Who is looking at it. */
  people: z.array(z.object({ userId: z.string(), displayName: z.string() })),
});
export type PresenceSnapshotMessage = z.infer<typeof PresenceSnapshotMessage>;

/** Answer to an application ping. */
export const PongMessage = z.object({
  type: z.literal(RealtimeMessageType.pong),
  /** Every event up to this seq in the client's rooms has been sent before this message. */
  seq: z.number().int().nonnegative(),
});
export type PongMessage = z.infer<typeof PongMessage>;

/** The new token was accepted. */
export const TokenAcceptedMessage = z.object({
  type: z.literal(RealtimeMessageType.tokenAccepted),
  /** When the new token expires (ISO-8601): send another before then. */
  expiresAt: z.string(),
});
export type TokenAcceptedMessage = z.infer<typeof TokenAcceptedMessage>;

/** A client message was refused; the connection stays open. */
export const RealtimeErrorMessage = z.object({
  type: z.literal(RealtimeMessageType.error),
  /**
   * `badMessage`, `forbiddenRoom`, `badToken`, or `rateLimited` (more messages than the socket may
   * send in 10 s: the message was dropped; slow down, or the socket is closed with 4430).
   */
  reason: z.enum(['badMessage', 'forbiddenRoom', 'badToken', 'rateLimited']),
  /** What was wrong and how to fix it. */
  message: z.string(),
});
export type RealtimeErrorMessage = z.infer<typeof RealtimeErrorMessage>;

/** Any message the server sends. */
export const ServerMessage = z.discriminatedUnion('type', [
  ReadyMessage,
  EventMessage,
  ResyncMessage,
  VolatileMessage,
  PresenceSnapshotMessage,
  PongMessage,
  TokenAcceptedMessage,
  RealtimeErrorMessage,
]);
export type ServerMessage = z.infer<typeof ServerMessage>;

/**
 * Domain events in a person's own room (`user:<id>`) that end or change their access. The server
 * re-checks the person on each and closes sockets that may no longer stay open.
 */
export const AccessEventName = {
  /** One session ended (sign-out); payload `{ sessionId }`. Its sockets close. */
  sessionEnded: 'session.ended',
  /** Every session of the person ended (sign-out everywhere); tokens before now are refused. */
  sessionsRevoked: 'session.revoked_all',
  /** The person was disabled; all their sockets close. */
  userDisabled: 'user.disabled',
  /**
   * The person's rights changed (the admin role, a call tree's event manager role): their sockets
   * re-check which rooms and events they may receive. Payload `{ reason }`.
   */
  accessChanged: 'access.changed',
} as const;
export type AccessEventName = (typeof AccessEventName)[keyof typeof AccessEventName];

/** Domain events in the `system` room (followed by no socket) that change everyone's access. */
export const SystemEventName = {
  /** A new terms version was published; payload `{ version }`. Sockets of people who have not accepted it close (4404). */
  termsPublished: 'terms.published',
} as const;
export type SystemEventName = (typeof SystemEventName)[keyof typeof SystemEventName];
