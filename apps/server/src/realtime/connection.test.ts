import { once } from 'node:events';
import { createServer } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import type { AccessClaims } from '../auth/accessTokens.ts';
import type { UserRow } from '../db/schema.ts';
import { Connection, outgoing } from './connection.ts';
import { SlicedWrites } from './slicedWrites.ts';

/** One turn of the event loop (the sliced writes continue in `setImmediate`). */
const turn = () => new Promise((resolve) => setImmediate(resolve));

const event = (seq: number) => ({
  seq,
  room: 'topic:t',
  type: 'post.created',
  payload: { n: seq },
  actorId: null,
  createdAt: '2026-11-23T00:00:00.000Z',
});

/** `count` connections over real sockets sharing one `SlicedWrites` of one socket per turn. */
async function connections(count: number) {
  const http = createServer();
  const wss = new WebSocketServer({ server: http });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `ws://127.0.0.1:${(http.address() as { port: number }).port}`;
  const writes = new SlicedWrites(1);
  const result: Array<{ connection: Connection; received: string[]; closed: Promise<unknown[]> }> = [];
  for (let i = 0; i < count; i += 1) {
    const accepted = once(wss, 'connection') as Promise<[WebSocket]>;
    const client = new WebSocket(url);
    const received: string[] = [];
    client.on('message', (data) => {
      const m = JSON.parse(data.toString()) as { type: string; seq?: number };
      received.push(m.type === 'event' ? `event ${m.seq}` : m.type);
    });
    const closed = once(client, 'close');
    const [socket] = await accepted;
    await once(client, 'open');
    const user = { id: `u${i}` } as UserRow;
    const claims = { sub: user.id, sid: 's', iat: 0, exp: 0 } as AccessClaims;
    const connection = new Connection(socket, user, claims, 1024 * 1024, writes, (error) => {
      throw error;
    });
    result.push({ connection, received, closed });
  }
  const stop = async () => {
    for (const socket of wss.clients) socket.terminate();
    await new Promise((resolve) => wss.close(resolve));
    await new Promise((resolve) => http.close(resolve));
  };
  return { writes, all: result, stop };
}

/** Bytes the server has written on a connection's socket. */
const written = (c: Connection) => (c.socket as unknown as { _socket: Socket })._socket.bytesWritten;

describe('a connection in the sliced fan-out', () => {
  let stop: () => Promise<void> = async () => {};
  afterEach(() => stop());

  it('sends an event committed during a fan-out with the first to sockets not written yet, in order', async () => {
    const { writes, all, ...rest } = await connections(3);
    stop = rest.stop;
    const before = all.map(({ connection }) => written(connection));
    const first = outgoing(event(1));
    for (const { connection } of all) connection.deliver(first);
    writes.start();
    // One socket per turn: the others have nothing written yet.
    expect(all.map(({ connection }, i) => written(connection) > before[i]!)).toEqual([true, false, false]);
    const second = outgoing(event(2));
    for (const { connection } of all) connection.deliver(second);
    writes.start();
    const afterFirstTurn = written(all[1]!.connection);
    expect(afterFirstTurn).toBe(before[1]);
    for (let i = 0; i < 4; i += 1) await turn();
    await expect
      .poll(() => all.map(({ received }) => received))
      .toEqual(Array(3).fill(['event 1', 'event 2']));
    for (const { connection } of all) expect(connection.sentSeq).toBe(2);
  });

  it('sends other messages and the close frame after the events still waiting', async () => {
    const { writes, all, ...rest } = await connections(2);
    stop = rest.stop;
    const item = outgoing(event(7));
    for (const { connection } of all) connection.deliver(item);
    writes.start();
    const [, waiting] = all;
    waiting!.connection.send({ type: 'pong', seq: 7 });
    waiting!.connection.close(4000, 'bye');
    const [code] = await waiting!.closed;
    expect(code).toBe(4000);
    expect(waiting!.received).toEqual(['event 7', 'pong']);
    await expect.poll(() => all[0]!.received).toEqual(['event 7']);
  });

  it("sends what waited while catching up from every room it follows, everyone's rooms included", async () => {
    const { all, ...rest } = await connections(1);
    stop = rest.stop;
    const { connection, received } = all[0]!;
    // Its own room, and an organisation-wide topic's, which only the hub's everyone set holds.
    connection.rooms = new Set(['topic:members']);
    const everyone = new Set(['topic:t']);
    connection.follows = (room) => connection.rooms.has(room) || everyone.has(room);
    let release: () => void = () => {};
    const replaying = new Promise<void>((resolve) => {
      release = resolve;
    });
    connection.runExclusive(() => replaying);
    // Live events while the replay after hello runs: they wait in the queue.
    connection.deliver(outgoing(event(1)));
    connection.deliver(outgoing({ ...event(2), room: 'topic:hidden' }));
    connection.deliver(outgoing({ ...event(3), room: 'topic:members' }));
    expect(received).toEqual([]);
    release();
    await expect.poll(() => received).toEqual(['event 1', 'event 3']);
  });
});
