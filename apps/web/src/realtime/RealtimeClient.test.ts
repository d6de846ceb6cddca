import type { AddressInfo } from 'node:net';
import type { EventMessage } from '@btalk/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { backoffDelay } from './backoff.ts';
import { RealtimeClient, type SocketLike } from './RealtimeClient.ts';

/**
 * A small real WebSocket server that speaks the server's side of the protocol from a log kept in
 * memory: replays `(lastSeq, head]`, sends `ready`, then whatever the test pushes live.
 */
class FakeStreamServer {
  readonly wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  readonly log: EventMessage[] = [];
  readonly hellos: Array<{ token: string; lastSeq: number | null }> = [];
  readonly sockets = new Set<WebSocket>();
  /** What to do with a hello instead of replaying (close codes). */
  refuse: ((token: string) => number | null) | null = null;
  /** Send the whole log again on replay, as a misbehaving server would: the client must drop doubles. */
  replayEverything = false;

  constructor() {
    this.wss.on('connection', (socket) => {
      socket.once('message', (data) => {
        const hello = JSON.parse(data.toString()) as { token: string; lastSeq: number | null };
        this.hellos.push(hello);
        const refusal = this.refuse?.(hello.token) ?? null;
        if (refusal) {
          socket.close(refusal, 'refused');
          return;
        }
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        const from = this.replayEverything ? 0 : (hello.lastSeq ?? this.head());
        for (const e of this.log) if (e.seq > from) socket.send(JSON.stringify(e));
        socket.send(JSON.stringify({ type: 'ready', seq: this.head(), userId: 'u1' }));
      });
    });
  }

  get url(): string {
    return `ws://127.0.0.1:${(this.wss.address() as AddressInfo).port}`;
  }

  head(): number {
    return this.log.at(-1)?.seq ?? 0;
  }

  /** Appends an event; live sockets get it unless `live` is false (it happened while they were away). */
  add(live = true): EventMessage {
    const event: EventMessage = {
      type: 'event',
      seq: this.head() + 1,
      room: 'topic:t1',
      name: 'post.created',
      payload: { n: this.head() + 1 },
      actorId: null,
      createdAt: new Date().toISOString(),
    };
    this.log.push(event);
    if (live) for (const s of this.sockets) s.send(JSON.stringify(event));
    return event;
  }

  /** Cuts every connection the way a lost network or a restart would. */
  dropAll(): void {
    for (const s of this.sockets) s.terminate();
  }

  close(): Promise<void> {
    for (const s of this.wss.clients) s.terminate();
    return new Promise((resolve) => this.wss.close(() => resolve()));
  }
}

async function until(check: () => boolean, what: string, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('backoffDelay', () => {
  it('grows exponentially up to the cap, with full jitter below the ceiling', () => {
    const options = { baseMs: 100, maxMs: 1000 };
    expect(backoffDelay(0, options, () => 0.999_999)).toBe(99);
    expect(backoffDelay(3, options, () => 0.999_999)).toBe(799);
    expect(backoffDelay(10, options, () => 0.999_999)).toBe(999);
    expect(backoffDelay(50, options, () => 0)).toBe(0);
    expect(backoffDelay(2, options, () => 0.5)).toBe(200);
  });
});

describe('RealtimeClient against a real WebSocket server', () => {
  let server: FakeStreamServer;
  let client: RealtimeClient | undefined;
  let received: number[];
  let resyncs: number;
  let token: string | null;

  beforeEach(async () => {
    server = new FakeStreamServer();
    await new Promise((resolve) => server.wss.once('listening', resolve));
    received = [];
    resyncs = 0;
    token = 'token-1';
  });
  afterEach(async () => {
    client?.stop();
    await server.close();
  });

  function connect(overrides: Partial<ConstructorParameters<typeof RealtimeClient>[0]> = {}) {
    client = new RealtimeClient({
      url: server.url,
      apiKey: 'key',
      getToken: async () => token,
      refresh: async () => false,
      onEvent: (e) => received.push(e.seq),
      onResync: () => {
        resyncs += 1;
      },
      onTermsRequired: () => {},
      createSocket: (url) => new WebSocket(url) as unknown as SocketLike,
      backoff: { baseMs: 20, maxMs: 100 },
      ...overrides,
    });
    client.start();
    return client;
  }

  it('says hello with token, key and no seq, then streams live events in order', async () => {
    server.add(false);
    const c = connect();
    await until(() => c.state.getState().status === 'connected', 'ready');
    expect(server.hellos[0]).toMatchObject({ token: 'token-1', lastSeq: null });
    expect(c.state.getState().userId).toBe('u1');
    server.add();
    server.add();
    await until(() => received.length === 2, 'two events');
    expect(received).toEqual([2, 3]);
    expect(c.lastSeq).toBe(3);
  });

  it('resumes from the last seq after a drop: what was missed arrives once, nothing doubled', async () => {
    const c = connect();
    await until(() => c.state.getState().status === 'connected', 'ready');
    server.add();
    await until(() => received.length === 1, 'first event');
    // Away: attempts are refused until the five events are in the log.
    server.refuse = () => 1011;
    server.dropAll();
    await until(() => c.state.getState().status === 'reconnecting', 'reconnecting');
    for (let i = 0; i < 5; i++) server.add(false);
    // The server of this test replays the whole log: only what the client lacks may reach it.
    server.replayEverything = true;
    server.refuse = null;
    await until(() => received.length === 6, 'the five missed events');
    expect(server.hellos.at(-1)?.lastSeq).toBe(1);
    server.add();
    await until(() => received.length === 7, 'a live event after the resume');
    expect(received).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('on 1001 (a server instance stopping) reconnects and resumes, with no refresh, sign-out or error', async () => {
    const refreshes: Array<string | null> = [];
    let signedOut = 0;
    let termsAsked = 0;
    const c = connect({
      refresh: async (old) => {
        refreshes.push(old);
        return false;
      },
      onSignedOut: () => (signedOut += 1),
      onTermsRequired: () => (termsAsked += 1),
    });
    await until(() => c.state.getState().status === 'connected', 'ready');
    server.add();
    await until(() => received.length === 1, 'first event');
    const statuses: string[] = [];
    c.state.subscribe(() => statuses.push(c.state.getState().status));
    // Committed elsewhere, not sent on this socket; then the hub closes it, as on SIGTERM.
    server.add(false);
    server.add(false);
    for (const s of server.sockets) s.close(1001, 'server is shutting down; reconnect');
    await until(() => received.length === 3, 'the events committed while it reconnected');
    expect(received).toEqual([1, 2, 3]);
    expect(server.hellos.at(-1)?.lastSeq).toBe(1);
    expect(c.state.getState().status).toBe('connected');
    expect(statuses).toContain('reconnecting');
    expect(statuses).not.toContain('stopped');
    expect({ refreshes, signedOut, termsAsked }).toEqual({ refreshes: [], signedOut: 0, termsAsked: 0 });
  });

  it('keeps retrying with backoff while the server is away', async () => {
    const c = connect();
    await until(() => c.state.getState().status === 'connected', 'ready');
    server.refuse = () => 1011;
    server.dropAll();
    await until(() => server.hellos.length >= 4, 'several attempts');
    expect(c.state.getState().status).toBe('reconnecting');
    server.refuse = null;
    await until(() => c.state.getState().status === 'connected', 'connected again');
  });

  it('refetches everything on resync and resumes from its seq', async () => {
    const c = connect();
    await until(() => c.state.getState().status === 'connected', 'ready');
    server.wss.removeAllListeners('connection');
    server.wss.on('connection', (socket) => {
      socket.once('message', () => {
        socket.send(JSON.stringify({ type: 'resync', reason: 'retention', seq: 40 }));
        socket.send(JSON.stringify({ type: 'ready', seq: 40, userId: 'u1' }));
      });
    });
    server.dropAll();
    for (const s of server.wss.clients) s.terminate();
    await until(() => resyncs === 1, 'resync');
    expect(c.lastSeq).toBe(40);
  });

  it('stops at 4404 and asks for the terms instead of reconnecting in a loop', async () => {
    let termsAsked = 0;
    server.refuse = () => 4404;
    const c = connect({ onTermsRequired: () => (termsAsked += 1) });
    await until(() => termsAsked === 1, 'terms');
    await new Promise((r) => setTimeout(r, 300));
    expect(server.hellos).toHaveLength(1);
    expect(c.state.getState().status).toBe('stopped');
  });

  it('refreshes once on 4001 and reconnects with the new token; stops when refreshing fails', async () => {
    server.refuse = (t) => (t === 'token-1' ? 4001 : null);
    const failed: Array<string | null> = [];
    const c = connect({
      refresh: async (old) => {
        failed.push(old);
        token = 'token-2';
        return true;
      },
    });
    await until(() => c.state.getState().status === 'connected', 'connected with the new token');
    expect(failed).toEqual(['token-1']);
    expect(server.hellos.map((h) => h.token)).toEqual(['token-1', 'token-2']);
    c.stop();

    let signedOut = 0;
    server.refuse = () => 4001;
    const d = connect({ refresh: async () => false, onSignedOut: () => (signedOut += 1) });
    await until(() => signedOut === 1, 'signed out');
    expect(d.state.getState().status).toBe('stopped');
  });

  it('hands a refreshed token over the open socket and sends throttled typing and presence', async () => {
    const c = connect();
    await until(() => c.state.getState().status === 'connected', 'ready');
    const seen: unknown[] = [];
    for (const s of server.sockets) s.on('message', (d) => seen.push(JSON.parse(d.toString())));
    token = 'token-2';
    await c.updateToken();
    c.setPresent('topic:t1', true);
    c.typing('topic:t1', 10_000);
    c.typing('topic:t1', 11_000);
    c.typing('topic:t1', 12_500);
    await until(() => seen.length === 4, 'four messages');
    expect(seen).toEqual([
      { type: 'token', token: 'token-2' },
      { type: 'presence', room: 'topic:t1', state: 'here' },
      { type: 'typing', room: 'topic:t1' },
      { type: 'typing', room: 'topic:t1' },
    ]);
  });
});
