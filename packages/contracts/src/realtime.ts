import { z } from 'zod';

/**
 * The realtime wire protocol of `/api/realtime` (one WebSocket per tab). Every message, in both
 * directions, is one JSON object with a `type` from this map; payloads are plain objects inside it,
 * never JSON encoded twice.
 */
export const RealtimeMessageType = {
  // Client -> server.
  /** First message: credentials and where to resume from. */
  hello: 'hello',
  /** A fresh access token for the same person, sent before the old one expires. */
  token: 'token',
  /** "I am typing in this room" (volatile). */
  typing: 'typing',
  /** "I am looking at this room" or "I left it" (volatile). */
  presence: 'presence',
  /** Application-level ping (browsers cannot see WebSocket pings). */
  ping: 'ping',
  // Server -> client.
  /** Replay is done: live events follow. */
  ready: 'ready',
  /** One domain event from the log. */
  event: 'event',
  /** The client asked to resume from further back than the server keeps: refetch everything. */
  resync: 'resync',
  /** A volatile event of another person (typing, presence). */
  volatile: 'volatile',
  /** Who is in a room now, sent after the client announces its own presence there. */
  presenceSnapshot: 'presenceSnapshot',
  /** Answer to `ping`. */
  pong: 'pong',
  /** The token was accepted; the connection now lives until the new expiry. */
  tokenAccepted: 'tokenAccepted',
  /** A message was refused; the connection stays open. */
  error: 'error',
} as const;
export type RealtimeMessageType = (typeof RealtimeMessageType)[keyof typeof RealtimeMessageType];

/**
 * WebSocket close codes the server uses, with a human-readable reason beside each. A client
 * reconnects after any of them except `unauthenticated`, where it first refreshes its session.
 */
export const RealtimeCloseCode = {
  /** The server is shutting down: reconnect (to another instance). */
  goingAway: 1001,
  /** The first message was missing, late or malformed. */
  badHello: 4000,
  /** The token or API key is not valid, has expired, or the session ended (sign-out, disabled). */
  unauthenticated: 4001,
  /** The person has not accepted the current terms of use (as envelope code 4404): go to /terms. */
  termsNotAccepted: 4404,
  /** The client did not read fast enough and the server's send buffer passed its bound. */
  slowConsumer: 4008,
  /** No answer to heartbeats (only seen if the connection comes back before the client notices). */
  heartbeatTimeout: 4009,
} as const;
export type RealtimeCloseCode = (typeof RealtimeCloseCode)[keyof typeof RealtimeCloseCode];

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
  /** `badMessage`, `forbiddenRoom` or `badToken`. */
  reason: z.enum(['badMessage', 'forbiddenRoom', 'badToken']),
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
} as const;
export type AccessEventName = (typeof AccessEventName)[keyof typeof AccessEventName];
