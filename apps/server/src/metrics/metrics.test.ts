import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { EscalationScheduler } from '../calltree/escalation.ts';
import type { AppContext } from '../context.ts';
import { DirectorySyncScheduler } from '../directory/syncScheduler.ts';
import { recordEvent } from '../events/eventLog.ts';
import { now } from '../ids.ts';
import type { Channel, SendResult } from '../notifications/channels/channel.ts';
import { DEFAULT_SETTINGS, saveSettings } from '../notifications/settings.ts';
import { NotificationWorker } from '../notifications/worker.ts';
import { TestClient } from '../realtime/testing.ts';
import { buildOrg } from '../test/calltree.ts';
import { describeEachDatabase } from '../test/db.ts';
import { setAsideOutbox } from '../test/outbox.ts';
import { parseScrape, type Scrape } from '../test/prometheus.ts';
import { type TestServer, useTestServer } from '../test/server.ts';
import { type SignedIn, signedIn } from '../test/session.ts';
import { as, buildPost, buildTopic } from '../test/topics.ts';

const TOKEN = 'metrics-token-for-the-tests-0123456789';
const API_KEY = 'btalk-web-development-key';

/** Scrapes /metrics on the main port with the token, as Prometheus does (no x-api-key). */
async function scrape(server: TestServer): Promise<Scrape> {
  const res = await server.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(res.statusCode, res.body).toBe(200);
  return parseScrape(res.body);
}

/** Scrapes until `check` holds (the hooks run after an answer is sent), or fails with the last scrape. */
async function scrapeUntil(server: TestServer, check: (s: Scrape) => boolean, what: string): Promise<Scrape> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const s = await scrape(server);
    if (check(s)) return s;
    if (Date.now() > deadline) throw new Error(`the scrape never showed ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A push channel whose every send fails, to be retried. */
class FailingChannel implements Channel {
  readonly name = 'push' as const;
  async send(): Promise<SendResult> {
    return { status: 'failed', error: 'push service answered 503' };
  }
}

describeEachDatabase('metrics', (kind) => {
  describe('GET /metrics with METRICS_TOKEN', () => {
    // No polling of the event log in these tests: the hub reads it when a commit is signalled.
    const server = useTestServer(kind, { METRICS_TOKEN: TOKEN, REALTIME_POLL_MS: '3600000' });
    let alice: SignedIn;
    beforeAll(async () => {
      alice = await signedIn(server);
    });

    it('refuses a scrape without the token or with another one (401 in the envelope), and needs no x-api-key', async () => {
      const none = await server.app.inject({ method: 'GET', url: '/metrics' });
      expect(none.statusCode).toBe(401);
      expect(none.json()).toMatchObject({ code: 4010, message: expect.stringContaining('METRICS_TOKEN') });
      expect(none.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      for (const authorization of [`Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, TOKEN, 'Bearer ']) {
        const wrong = await server.app.inject({ method: 'GET', url: '/metrics', headers: { authorization } });
        expect(wrong.statusCode, authorization).toBe(401);
        expect(wrong.json().code).toBe(4010);
      }
      const ok = await server.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
      const s = parseScrape(ok.body);
      // The process's default metrics and the build's version.
      expect(s.types.get('process_cpu_user_seconds_total')).toBe('counter');
      expect(s.value('btalk_build_info', { version: server.ctx.version })).toBe(1);
    });

    it('labels requests by route pattern: two topics are one route, an unmatched path is "unmatched"', async () => {
      const first = await buildTopic(server, alice);
      const second = await buildTopic(server, alice);
      const route = { method: 'GET', route: '/api/topics/:topicId/posts', status: '200' };
      const before = (await scrape(server)).sum('btalk_http_requests_total', route);
      for (const topic of [first, second]) {
        expect((await as(server, alice).get(`/api/topics/${topic.id}/posts`)).statusCode).toBe(200);
      }
      const stray = `/no-such-page-${randomUUID()}`;
      expect((await server.request({ method: 'POST', url: stray })).statusCode).toBe(404);
      const after = await scrapeUntil(
        server,
        (s) =>
          s.sum('btalk_http_requests_total', route) === before + 2 &&
          s.sum('btalk_http_requests_total', { route: 'unmatched', method: 'POST', status: '404' }) >= 1,
        'both topic pages and the unmatched request',
      );
      const routes = new Set(after.all('btalk_http_requests_total').map((sample) => sample.labels.route));
      expect(routes.has('/api/topics/:topicId/posts')).toBe(true);
      // Never a raw URL: no topic id and no stray path in any label.
      for (const sample of after.samples) {
        for (const value of Object.values(sample.labels)) {
          expect(value).not.toContain(first.id);
          expect(value).not.toContain(second.id);
          expect(value).not.toContain(stray);
        }
      }
      // The duration histogram has the same route, by status class.
      expect(
        after.value('btalk_http_request_duration_seconds_count', {
          method: 'GET',
          route: '/api/topics/:topicId/posts',
          status_class: '2xx',
        }),
      ).toBeGreaterThanOrEqual(2);
      // 4xx apart from 5xx: a topic page without a session is a 401.
      const unauthenticated = { method: 'GET', route: '/api/topics/:topicId/posts', status: '401' };
      const refusedBefore = after.sum('btalk_http_requests_total', unauthenticated);
      expect((await as(server, null).get(`/api/topics/${first.id}/posts`)).statusCode).toBe(401);
      await scrapeUntil(
        server,
        (s) => s.sum('btalk_http_requests_total', unauthenticated) === refusedBefore + 1,
        'the 401',
      );
    });

    it('counts a post, the realtime socket and the event the hub delivered to it; the event log lag returns to 0', async () => {
      const url = await server.app.listen({ port: 0, host: '127.0.0.1' });
      const topic = await buildTopic(server, alice);
      const before = await scrape(server);
      expect(before.value('btalk_realtime_open_sockets')).toBe(0);
      const lagCount = before.value('btalk_realtime_delivery_lag_seconds_count') ?? 0;
      const client = new TestClient(url);
      try {
        await client.hello(alice.token, API_KEY);
        const connected = await scrape(server);
        expect(connected.value('btalk_realtime_open_sockets')).toBe(1);
        expect(connected.value('btalk_realtime_signed_in_sockets')).toBe(1);

        const posts = { method: 'POST', route: '/api/topics/:topicId/posts', status: '200' };
        const postsBefore = connected.sum('btalk_http_requests_total', posts);
        const post = await buildPost(server, alice, topic.id, 'Counted');
        await client.waitForEvents(1, (m) => m.type === 'event' && m.name === 'post.created');
        const after = await scrapeUntil(
          server,
          (s) =>
            s.value('btalk_realtime_event_log_lag_events') === 0 &&
            s.sum('btalk_http_requests_total', posts) === postsBefore + 1,
          'the post counted and the hub caught up with the log',
        );
        expect(post.id).toBeTruthy();
        expect(after.value('btalk_realtime_delivery_lag_seconds_count')).toBeGreaterThan(lagCount);
        expect(after.value('btalk_realtime_delivery_lag_seconds_bucket', { le: '+Inf' })).toBe(
          after.value('btalk_realtime_delivery_lag_seconds_count'),
        );

        // Two events committed without the commit signal: the hub has not read them yet.
        await server.ctx.db.kysely.transaction().execute(async (trx) => {
          await recordEvent(trx, { room: `topic:${topic.id}`, type: 'test.unsignalled', payload: {} });
          await recordEvent(trx, { room: `topic:${topic.id}`, type: 'test.unsignalled', payload: {} });
        });
        expect((await scrape(server)).value('btalk_realtime_event_log_lag_events')).toBe(2);
        server.ctx.bus.committed();
        await client.waitForEvents(2, (m) => m.type === 'event' && m.name === 'test.unsignalled');
        await scrapeUntil(
          server,
          (s) => s.value('btalk_realtime_event_log_lag_events') === 0,
          'the hub caught up',
        );
      } finally {
        await client.close();
      }
      await scrapeUntil(server, (s) => s.value('btalk_realtime_open_sockets') === 0, 'the socket closed');
    });

    it('shows the outbox depth, and counts deliveries retried and dead by channel', async () => {
      const db = server.ctx.db.kysely;
      await setAsideOutbox(db);
      const bob = await signedIn(server);
      await saveSettings(
        db,
        bob.user.id,
        { ...DEFAULT_SETTINGS, channels: { push: true, email: false, teams: false } },
        now(),
      );
      const topic = await buildTopic(server, alice);
      await buildPost(server, alice, topic.id, `Hi @[Bob](user:${bob.user.id})`, { mentions: [bob.user.id] });
      const queued = await scrape(server);
      expect(queued.value('btalk_outbox_undispatched_notifications')).toBe(1);
      const retries = queued.value('btalk_notification_deliveries_total', {
        channel: 'push',
        outcome: 'retry',
      });
      const dead = queued.value('btalk_notification_deliveries_total', { channel: 'push', outcome: 'dead' });
      expect(retries).toBeDefined();

      // The worker's clock starts an hour back, so the retry it sets is due by the scrape's clock.
      let at = Date.now() - 3_600_000;
      const worker = new NotificationWorker({
        db,
        channels: [new FailingChannel()],
        publicUrl: 'http://btalk.test',
        clock: () => new Date(at),
        random: () => 1,
        maxAttempts: 2,
        emailDelayMs: 0,
        observer: server.ctx.metrics.deliveries,
      });
      expect(await worker.runOnce()).toMatchObject({ dispatched: 1, failed: 1 });
      const retried = await scrape(server);
      expect(retried.value('btalk_outbox_undispatched_notifications')).toBe(0);
      expect(retried.value('btalk_outbox_due_deliveries')).toBe(1);
      expect(
        retried.value('btalk_notification_deliveries_total', { channel: 'push', outcome: 'retry' }),
      ).toBe(retries! + 1);
      at += 10_000;
      expect(await worker.runOnce()).toMatchObject({ dead: 1 });
      const gone = await scrape(server);
      expect(gone.value('btalk_outbox_due_deliveries')).toBe(0);
      expect(gone.value('btalk_notification_deliveries_total', { channel: 'push', outcome: 'dead' })).toBe(
        dead! + 1,
      );
    });

    it('counts escalation scheduler runs by outcome: escalated, idle, skipped and failed', async () => {
      const admin = await signedIn(server, { role: 'admin' });
      const org = await buildOrg(server);
      const tree = await as(server, admin).post('/api/calltree/trees', {
        name: 'Metrics',
        rootUserId: org.ceo.id,
      });
      const event = await as(server, admin).post(`/api/calltree/trees/${tree.json().data.tree.id}/events`, {
        title: 'Drill',
        message: 'Count us.',
        kind: 'drill',
        escalationDelayMinutes: 15,
      });
      const startedAt = Date.parse(event.json().data.startedAt);
      const runs = (s: Scrape, outcome: string) => s.value('btalk_escalation_runs_total', { outcome }) ?? 0;
      const before = await scrape(server);
      const holder = randomUUID();
      const scheduler = (at: number, who = holder, leaseMs?: number) =>
        new EscalationScheduler({
          db: server.ctx.db.kysely,
          bus: server.ctx.bus,
          now: () => new Date(at),
          holder: who,
          onRun: server.ctx.metrics.escalationRun,
          ...(leaseMs ? { leaseMs } : {}),
        });
      const late = startedAt + 16 * 60_000;
      const escalated = await scheduler(late).tick();
      expect(escalated).toBeGreaterThan(0);
      expect(await scheduler(late).tick()).toBe(0);
      // Another instance while the lease is held.
      expect(await scheduler(late, randomUUID()).tick()).toBe(0);
      const broken = new EscalationScheduler({
        db: server.ctx.db.kysely,
        bus: server.ctx.bus,
        now: () => {
          throw new Error('the clock is broken');
        },
        onRun: server.ctx.metrics.escalationRun,
      });
      await expect(broken.tick()).rejects.toThrow('the clock is broken');
      const after = await scrape(server);
      expect(runs(after, 'escalated')).toBe(runs(before, 'escalated') + 1);
      expect(runs(after, 'idle')).toBe(runs(before, 'idle') + 1);
      expect(runs(after, 'skipped')).toBe(runs(before, 'skipped') + 1);
      expect(runs(after, 'failed')).toBe(runs(before, 'failed') + 1);
      expect(
        (after.value('btalk_escalations_total') ?? 0) - (before.value('btalk_escalations_total') ?? 0),
      ).toBe(escalated);
    });

    it('counts directory sync runs by outcome: synced, skipped and failed', async () => {
      const runs = (s: Scrape, outcome: string) =>
        s.value('btalk_directory_sync_runs_total', { outcome }) ?? 0;
      const before = await scrape(server);
      const sync = (ctx: AppContext) =>
        new DirectorySyncScheduler({
          ctx,
          intervalMs: 3_600_000,
          holder: randomUUID(),
          onRun: server.ctx.metrics.directorySyncRun,
        });
      // The development directory's people; then another instance within the interval.
      expect(await sync(server.ctx).tick()).not.toBeNull();
      expect(await sync(server.ctx).tick()).toBeNull();
      const away = new Proxy(server.ctx.db.kysely, {
        get() {
          throw new Error('the database is away');
        },
      });
      const broken = { ...server.ctx, db: { ...server.ctx.db, kysely: away } };
      await expect(sync(broken).tick()).rejects.toThrow('the database is away');
      const after = await scrape(server);
      expect(runs(after, 'synced')).toBe(runs(before, 'synced') + 1);
      expect(runs(after, 'skipped')).toBe(runs(before, 'skipped') + 1);
      expect(runs(after, 'failed')).toBe(runs(before, 'failed') + 1);
    });

    it(
      kind === 'postgres'
        ? "reports the PostgreSQL pool's connections, idle ones, waiting queries and its size"
        : 'reports no pool and no write queue for an in-memory SQLite database',
      async () => {
        const s = await scrape(server);
        if (kind === 'postgres') {
          expect(s.value('btalk_db_pool_max_connections')).toBe(4);
          expect(s.value('btalk_db_pool_connections')).toBeGreaterThanOrEqual(1);
          expect(s.value('btalk_db_pool_connections')).toBeLessThanOrEqual(4);
          expect(s.value('btalk_db_pool_idle_connections')).toBeLessThanOrEqual(
            s.value('btalk_db_pool_connections')!,
          );
          expect(s.value('btalk_db_pool_waiting_requests')).toBe(0);
          expect(s.types.has('btalk_sqlite_commit_batch_size')).toBe(false);
        } else {
          expect(s.types.has('btalk_db_pool_connections')).toBe(false);
          expect(s.types.has('btalk_sqlite_commit_batch_size')).toBe(false);
        }
      },
    );
  });

  describe('GET /metrics without METRICS_TOKEN', () => {
    const server = useTestServer(kind);

    it('is a 404 like any path not served (not the web app), and counts no requests', async () => {
      const res = await server.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 4040, message: expect.stringContaining('METRICS_PORT') });
      expect(server.ctx.metrics.scraped).toBe(false);
      const text = await server.ctx.metrics.registry.metrics();
      expect(parseScrape(text).all('btalk_http_requests_total')).toEqual([]);
      expect(text).not.toContain('process_cpu_user_seconds_total');
    });
  });
});
