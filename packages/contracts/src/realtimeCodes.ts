// The realtime protocol's message types, close codes and the API's stream-position header. Imports nothing (no zod): the web app takes
// them from `@btalk/contracts/constants`; `realtime.ts` re-exports them beside its schemas.

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
  /**
   * The person already holds as many sockets on this server as allowed (REALTIME_MAX_SOCKETS_PER_PERSON):
   * close another tab or wait before reconnecting (as HTTP 429).
   */
  tooManyConnections: 4429,
  /** The socket kept sending after its messages were refused for going too fast (as HTTP 429). */
  tooManyMessages: 4430,
} as const;
export type RealtimeCloseCode = (typeof RealtimeCloseCode)[keyof typeof RealtimeCloseCode];

/**
 * Response header of every API answer: the event log's position this server's realtime stream had
 * reached when the request arrived. The answer reflects at least every event up to it, so a client
 * whose first `ready` names a position no later than this need not read the answer again.
 */
export const EVENT_SEQ_HEADER = 'x-btalk-event-seq';
