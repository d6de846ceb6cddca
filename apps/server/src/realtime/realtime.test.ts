import { EVENT_SEQ_HEADER, RealtimeCloseCode, type ServerMessage } from '@btalk/contracts';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newId, now } from '../ids.ts';
import { describeEachDatabase } from '../test/db.ts';
import { type TestServer, useTestServer } from '../test/server.ts';
import { sessionToken, signedIn } from '../test/session.ts';
import { prunedThrough, pruneEvents } from './log.ts';
import { record, settle, TestClient } from './testing.ts';

const API_KEY = 'btalk-web-development-key';

/** Listens on a free loopback port once per suite; returns the base URL. */
function useListening(server: TestServer): { url: string } {
  const where = { url: '' };
  beforeAll(async () => {
    where.url = await server.app.listen({ port: 0, host: '127.0.0.1' });
  });
  return where;
}

const clients: TestClient[] = [];
function client(url: string, options = {}): TestClient {
  const c = new TestClient(url, options);
  clients.push(c);
  return c;
}
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
});

const seqs = (events: Array<{ seq: number }>) => events.map((e) => e.seq);

describeEachDatabase('realtime stream', (kind) => {
  describe('connecting', () => {
    const server = useTestServer(kind, { REALTIME_ALLOWED_ORIGINS: 'https://teams.example.org' });
    const where = useListening(server);

    it('refuses a foreign Origin before the upgrade, and accepts the public URL and listed origins', async () => {
      const foreign = client(where.url, { origin: 'https://evil.example' });
      await expect(foreign.opened).rejects.toThrow('HTTP 403');
      const { token } = await signedIn(server);
      for (const origin of ['http://localhost:8080', 'https://teams.example.org']) {
        const ok = client(where.url, { origin });
        await ok.hello(token, API_KEY);
        expect(ok.messages.at(-1)).toMatchObject({ type: 'ready' });
      }
    });

    it('requires a hello with a valid key and token as the first message', async () => {
      const { token } = await signedIn(server);
      const notHello = client(where.url);
      await notHello.opened;
      notHello.send({ type: 'ping' });
      expect(await notHello.closed).toMatchObject({ code: RealtimeCloseCode.badHello });

      const garbage = client(where.url);
      await garbage.opened;
      garbage.socket.send('not json');
      expect((await garbage.closed).code).toBe(RealtimeCloseCode.badHello);

      const badKey = client(where.url);
      await expect(badKey.hello(token, 'wrong-key-123')).rejects.toThrow(/4001/);
      expect((await badKey.closed).reason).toContain('apiKey');

      const badToken = client(where.url);
      await expect(badToken.hello(`${token}x`, API_KEY)).rejects.toThrow(/4001/);
    });

    it('refuses disabled people, ended sessions and expired tokens', async () => {
      const disabled = await signedIn(server, { disabled: 1 });
      const a = client(where.url);
      await expect(a.hello(disabled.token, API_KEY)).rejects.toThrow(/4001.*not active/);

      const later = new Date(Date.now() + 5000).toISOString();
      const signedOut = await signedIn(server, { tokens_valid_after: later });
      const b = client(where.url);
      await expect(b.hello(signedOut.token, API_KEY)).rejects.toThrow(/4001.*session has ended/);

      const { user } = await signedIn(server);
      const old = await server.ctx.tokens.sign(user.id, newId(), Math.floor(Date.now() / 1000) - 3600);
      const c = client(where.url);
      await expect(c.hello(old, API_KEY)).rejects.toThrow(/4001.*expired/);
    });

    it('refuses people who have not accepted the current terms of use', async () => {
      const { token } = await signedIn(server, {}, { acceptedTerms: false });
      const c = client(where.url);
      await expect(c.hello(token, API_KEY)).rejects.toThrow(/4404.*terms/);
    });

    it('refreshes the token over the socket, and closes a socket whose token expires unrefreshed', async () => {
      const { user } = await signedIn(server);
      const ttl = server.ctx.tokens.ttlSeconds;
      const sid = newId();
      // Tokens that expire in 4 to 5 seconds: both sockets must be open before then (expiring in about
      // a second, one closed before its hello was answered on a busy CI machine).
      const soon = () =>
        sessionToken(server, user.id, {
          sessionId: sid,
          issuedAtSeconds: Math.floor(Date.now() / 1000) - ttl + 5,
        });
      const refreshed = client(where.url);
      await refreshed.hello(await soon(), API_KEY);
      const lazy = client(where.url);
      await lazy.hello(await soon(), API_KEY);

      refreshed.send({ type: 'token', token: await sessionToken(server, user.id, { sessionId: sid }) });
      const accepted = await refreshed.waitFor((m) => m.type === 'tokenAccepted');
      expect(Date.parse((accepted as { expiresAt: string }).expiresAt)).toBeGreaterThan(Date.now() + 60_000);

      const closed = await lazy.closed;
      expect(closed.code).toBe(RealtimeCloseCode.unauthenticated);
      expect(closed.reason).toContain('expired');
      // The refreshed socket outlived the first token and still streams.
      const event = await record(server.ctx, `user:${user.id}`, 'test.after_refresh');
      await refreshed.waitFor((m) => m.type === 'event' && m.seq === event.seq);
      expect(refreshed.socket.readyState).toBe(refreshed.socket.OPEN);

      const stranger = await signedIn(server);
      refreshed.send({ type: 'token', token: stranger.token });
      expect(await refreshed.waitFor((m) => m.type === 'error')).toMatchObject({ reason: 'badToken' });
    });

    it('answers application pings with how far the connection is', async () => {
      const { user, token } = await signedIn(server);
      const c = client(where.url);
      await c.hello(token, API_KEY);
      const event = await record(server.ctx, `user:${user.id}`);
      await c.waitFor((m) => m.type === 'event');
      c.send({ type: 'ping' });
      const pong = await c.waitFor<Extract<ServerMessage, { type: 'pong' }>>((m) => m.type === 'pong');
      expect(pong.seq).toBeGreaterThanOrEqual(event.seq);
      c.send({ type: 'nonsense' });
      expect(await c.waitFor((m) => m.type === 'error')).toMatchObject({ reason: 'badMessage' });
    });
  });

  describe('streaming', () => {
    const server = useTestServer(kind);
    const where = useListening(server);

    it('streams live events of the rooms the person may see, in order, each once', async () => {
      const alice = await signedIn(server);
      const bob = await signedIn(server);
      const c = client(where.url);
      await c.hello(alice.token, API_KEY);
      await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          record(server.ctx, i % 3 === 0 ? `user:${bob.user.id}` : `user:${alice.user.id}`, 'test.n', { i }),
        ),
      );
      const events = await c.waitForEvents(20);
      await settle(200);
      expect(c.events()).toHaveLength(20);
      expect(events.every((e) => e.room === `user:${alice.user.id}`)).toBe(true);
      expect(seqs(events)).toEqual([...seqs(events)].sort((a, b) => a - b));
      expect(new Set(events.map((e) => (e.payload as { i: number }).i)).size).toBe(20);
      // The payload is an object inside the message, not JSON text inside JSON.
      expect(typeof events[0]!.payload).toBe('object');
    });

    it("answers every API request with the stream's position when it arrived, and a ready names it too", async () => {
      const alice = await signedIn(server);
      const c = client(where.url);
      await c.hello(alice.token, API_KEY);
      const event = await record(server.ctx, `user:${alice.user.id}`, 'test.position');
      await c.waitForEvents(1, (m) => m.type === 'event' && m.seq === event.seq);
      // The stream has read the event: an answer from now on reflects it, and says so.
      const me = await server.request({ method: 'GET', url: '/api/me', headers: alice.headers });
      expect(me.statusCode).toBe(200);
      expect(Number(me.headers[EVENT_SEQ_HEADER])).toBeGreaterThanOrEqual(event.seq);
      // Refusals carry it as well (nothing to reflect, but the client needs no special case).
      const refused = await server.request({ method: 'GET', url: '/api/me' });
      expect(refused.statusCode).toBe(401);
      expect(Number(refused.headers[EVENT_SEQ_HEADER])).toBeGreaterThanOrEqual(event.seq);
      const fresh = client(where.url);
      await fresh.hello(alice.token, API_KEY);
      // Nothing happened since: the new stream starts where the answer stands.
      expect(fresh.messages.find((m) => m.type === 'ready')).toMatchObject({
        seq: Number(me.headers[EVENT_SEQ_HEADER]),
      });
    });

    it('replays what was missed after reconnecting: nothing missed, nothing doubled', async () => {
      const { user, token } = await signedIn(server);
      const room = `user:${user.id}`;
      const total = 120;
      let written = 0;
      const writer = (async () => {
        for (; written < total; written++) {
          await record(server.ctx, room, 'test.n', { i: written });
          if (written % 10 === 0) await settle(5);
        }
      })();
      // Reconnect several times while the writer runs, each time from the last seq seen.
      const received: number[] = [];
      let lastSeq: number | null = 0;
      for (let round = 0; round < 5; round++) {
        const c = client(where.url);
        await c.hello(token, API_KEY, lastSeq);
        await settle(20 + round * 15);
        await c.close();
        received.push(...seqs(c.events()));
        lastSeq = c.lastSeq();
      }
      await writer;
      const all = (
        await server.ctx.db.kysely.selectFrom('events').select('seq').where('room', '=', room).execute()
      )
        .map((r) => Number(r.seq))
        .sort((a, b) => a - b);
      expect(all).toHaveLength(total);
      const final = client(where.url);
      await final.hello(token, API_KEY, lastSeq);
      // The newest events may come just after `ready`, live, if the hub had not read them yet when
      // the replay was cut: wait for the last one, then a little more for any duplicate.
      if ((lastSeq ?? 0) < all.at(-1)!)
        await final.waitFor((m) => m.type === 'event' && m.seq === all.at(-1));
      await settle(100);
      received.push(...seqs(final.events()));
      expect(received).toEqual(all);
    });

    it('sends a resync when the client is further back than the log keeps, or unknown', async () => {
      const { user, token } = await signedIn(server);
      const room = `user:${user.id}`;
      const old = await record(server.ctx, room, 'test.old');
      await record(server.ctx, room, 'test.old');
      // Those two are eight days old now: past the default seven days of retention.
      const eightDaysAgo = new Date(Date.now() - 8 * 86_400_000).toISOString();
      await server.ctx.db.kysely
        .updateTable('events')
        .set({ created_at: eightDaysAgo })
        .where('seq', '<=', old.seq + 1)
        .execute();
      expect(
        await pruneEvents(server.ctx.db.kysely, server.ctx.config.realtime.retentionDays),
      ).toBeGreaterThan(0);
      expect(await prunedThrough(server.ctx.db.kysely)).toBeGreaterThanOrEqual(old.seq + 1);
      const kept = await record(server.ctx, room, 'test.kept');

      const behind = client(where.url);
      await behind.hello(token, API_KEY, old.seq - 1);
      expect(behind.messages[0]).toMatchObject({ type: 'resync', reason: 'retention' });
      expect(behind.events()).toEqual([]);

      const fresh = client(where.url);
      await fresh.hello(token, API_KEY, old.seq + 1);
      expect(seqs(fresh.events())).toEqual([kept.seq]);

      const future = client(where.url);
      await future.hello(token, API_KEY, kept.seq + 1_000_000);
      expect(future.messages[0]).toMatchObject({ type: 'resync', reason: 'unknownSeq' });
      // Live events still follow a resync.
      const live = await record(server.ctx, room, 'test.live');
      await future.waitFor((m) => m.type === 'event' && m.seq === live.seq);
    });

    it('prunes nothing newer than the retention', async () => {
      const { user } = await signedIn(server);
      const recent = await record(server.ctx, `user:${user.id}`, 'test.recent');
      await pruneEvents(server.ctx.db.kysely, 7);
      const still = await server.ctx.db.kysely
        .selectFrom('events')
        .select('seq')
        .where('seq', '=', recent.seq)
        .executeTakeFirst();
      expect(still).toBeDefined();
    });

    it('closes the sockets of an ended session, and all sockets of a disabled person', async () => {
      const { user } = await signedIn(server);
      const sessionA = newId();
      const tokenA = await sessionToken(server, user.id, { sessionId: sessionA });
      const tokenB = await sessionToken(server, user.id);
      const a = client(where.url);
      await a.hello(tokenA, API_KEY);
      const b = client(where.url);
      await b.hello(tokenB, API_KEY);

      await record(server.ctx, `user:${user.id}`, 'session.ended', { sessionId: sessionA });
      expect(await a.closed).toMatchObject({ code: RealtimeCloseCode.unauthenticated });
      const after = await record(server.ctx, `user:${user.id}`, 'test.still_here');
      await b.waitFor((m) => m.type === 'event' && m.seq === after.seq);

      await server.ctx.db.kysely
        .updateTable('users')
        .set({ disabled: 1, updated_at: now() })
        .where('id', '=', user.id)
        .execute();
      await record(server.ctx, `user:${user.id}`, 'user.disabled', {});
      expect(await b.closed).toMatchObject({ code: RealtimeCloseCode.unauthenticated });
    });
  });

  describe('room access', () => {
    const server = useTestServer(kind);
    const where = useListening(server);
    // A second kind of room for the test: members kept in memory, changes announced by events, as
    // the topics kind does with its tables.
    const members = new Map<string, Set<string>>();
    beforeAll(() => {
      server.ctx.rooms.register('team', {
        visibleIds: async (_db, user) => [...members].filter(([, m]) => m.has(user.id)).map(([id]) => id),
        canSee: async (_db, user, id) => members.get(id)?.has(user.id) ?? false,
        accessChangedBy: (event) => (event.type.startsWith('team.member_') ? 'audience' : null),
      });
    });

    it('stops events of a room at once when the person loses access, and starts them when gained', async () => {
      const alice = await signedIn(server);
      const bob = await signedIn(server);
      const team = newId();
      members.set(team, new Set([alice.user.id, bob.user.id]));
      const c = client(where.url);
      await c.hello(bob.token, API_KEY);

      // A steady stream of posts in the team while Bob is removed and added back.
      let stop = false;
      const posts = (async () => {
        let i = 0;
        while (!stop) {
          await record(server.ctx, `team:${team}`, 'post.created', { i: i++ });
          // SQLite answers without yielding to timers: let the rest of the test run.
          await settle(2);
        }
      })();
      await settle(100);
      members.get(team)!.delete(bob.user.id);
      const removed = await record(server.ctx, `user:${bob.user.id}`, 'team.member_removed', { team });
      await settle(150);
      members.get(team)!.add(bob.user.id);
      const added = await record(server.ctx, `user:${bob.user.id}`, 'team.member_added', { team });
      await settle(150);
      stop = true;
      await posts;
      const lastPost = await record(server.ctx, `team:${team}`, 'post.created', { last: true });
      await c.waitFor((m) => m.type === 'event' && m.seq === lastPost.seq);

      const teamSeqs = seqs(c.events().filter((e) => e.room === `team:${team}`));
      expect(teamSeqs.some((s) => s < removed.seq)).toBe(true);
      expect(teamSeqs.some((s) => s > removed.seq && s < added.seq)).toBe(false);
      // Every post after Bob was added back, including those during the re-check, arrived once.
      const expected = (
        await server.ctx.db.kysely
          .selectFrom('events')
          .select('seq')
          .where('room', '=', `team:${team}`)
          .where('seq', '>', added.seq)
          .execute()
      ).map((r) => Number(r.seq));
      expect(teamSeqs.filter((s) => s > added.seq)).toEqual(expected.sort((a, b) => a - b));
      expect(seqs(c.events())).toEqual([...seqs(c.events())].sort((a, b) => a - b));
    });

    it('relays typing and presence to the room only, throttled, and never replays them', async () => {
      const alice = await signedIn(server, { display_name: 'Alice' });
      const bob = await signedIn(server, { display_name: 'บุญมี' });
      const carol = await signedIn(server);
      const team = newId();
      members.set(team, new Set([alice.user.id, bob.user.id]));
      const a = client(where.url);
      await a.hello(alice.token, API_KEY);
      const b = client(where.url);
      await b.hello(bob.token, API_KEY);
      const c = client(where.url);
      await c.hello(carol.token, API_KEY);

      a.send({ type: 'typing', room: `team:${team}` });
      a.send({ type: 'typing', room: `team:${team}` });
      const typing = await b.waitFor((m) => m.type === 'volatile' && m.kind === 'typing');
      expect(typing).toMatchObject({ room: `team:${team}`, userId: alice.user.id, displayName: 'Alice' });

      a.send({ type: 'presence', room: `team:${team}`, state: 'here' });
      const snapshot = await a.waitFor((m) => m.type === 'presenceSnapshot');
      expect(snapshot).toMatchObject({ people: [{ userId: alice.user.id, displayName: 'Alice' }] });
      await b.waitFor((m) => m.type === 'volatile' && m.kind === 'presence' && m.state === 'here');
      b.send({ type: 'presence', room: `team:${team}`, state: 'here' });
      const bobSees = await b.waitFor<Extract<ServerMessage, { type: 'presenceSnapshot' }>>(
        (m) => m.type === 'presenceSnapshot',
      );
      expect(bobSees.people.map((p) => p.userId).sort()).toEqual([alice.user.id, bob.user.id].sort());

      c.send({ type: 'typing', room: `team:${team}` });
      expect(await c.waitFor((m) => m.type === 'error')).toMatchObject({ reason: 'forbiddenRoom' });

      await a.close();
      await b.waitFor((m) => m.type === 'volatile' && m.kind === 'presence' && m.state === 'left');
      // Throttled: two typing messages in a row made one; nobody echoes their own; Carol saw nothing.
      expect(b.messages.filter((m) => m.type === 'volatile' && m.kind === 'typing')).toHaveLength(1);
      expect(a.messages.filter((m) => m.type === 'volatile')).toHaveLength(1);
      expect(c.messages.filter((m) => m.type === 'volatile')).toEqual([]);

      const again = client(where.url);
      await again.hello(bob.token, API_KEY, 0);
      await settle(100);
      expect(again.messages.filter((m) => m.type === 'volatile')).toEqual([]);
    });
  });

  describe('dead connections', () => {
    const server = useTestServer(kind, { REALTIME_HEARTBEAT_MS: '150' });
    const where = useListening(server);

    it('closes a connection that stops answering heartbeats, and keeps one that answers', async () => {
      const { token } = await signedIn(server);
      const dead = client(where.url, { autoPong: false });
      await dead.hello(token, API_KEY);
      const alive = client(where.url);
      await alive.hello(token, API_KEY);
      const closed = await dead.closed;
      expect(closed.code).toBe(1006); // cut, not closed politely: the peer is presumed gone
      await settle(400);
      expect(alive.socket.readyState).toBe(alive.socket.OPEN);
    });
  });

  describe('slow connections', () => {
    const server = useTestServer(kind, { REALTIME_MAX_BUFFERED_BYTES: '262144' });
    const where = useListening(server);

    it('disconnects a client that does not read, with a reason, instead of buffering without bound', async () => {
      const { user, token } = await signedIn(server);
      const slow = client(where.url);
      await slow.hello(token, API_KEY);
      const fast = client(where.url);
      await fast.hello(token, API_KEY);
      // Stop reading from the socket: the server's send buffer fills up.
      (slow.socket as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();
      // 200 events of 50 kB (10 MB) are far more than the kernel's socket buffers and the bound.
      const big = 'x'.repeat(50_000);
      for (let i = 0; i < 200; i++) {
        await record(server.ctx, `user:${user.id}`, 'test.big', { big, i });
        await settle(1);
      }
      // The reading client got every one.
      await fast.waitForEvents(200, () => true, 15_000);
      (slow.socket as unknown as { _socket: { resume(): void } })._socket.resume();
      const closed = await slow.closed;
      expect(closed.code).toBe(RealtimeCloseCode.slowConsumer);
      expect(closed.reason).toContain('slow consumer');
      expect(slow.events().length).toBeLessThan(200);
    });
  });
});
