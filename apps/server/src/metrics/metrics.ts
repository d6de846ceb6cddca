import { NotificationChannel } from '@btalk/contracts';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { EscalationRunOutcome } from '../calltree/escalation.ts';
import type { Db } from '../db/index.ts';
import type { DeliveryObserver, DeliveryOutcome } from '../notifications/worker.ts';
import { registerDatabaseMetrics } from './database.ts';
import { registerQueueMetrics } from './queues.ts';

/** The route label of a request the router matched to no route: never the raw URL. */
export const UNMATCHED_ROUTE = 'unmatched';

/** Methods kept as they are in the `method` label; any other becomes OTHER (bounded labels). */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Seconds: from a quick API answer to a slow upload or report. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds from an event's commit to its fan-out: tens of milliseconds normally, the poll at worst. */
const LAG_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** What a scrape reads from a realtime hub (realtime/hub.ts). */
export interface RealtimeSource {
  /** WebSockets open on this instance, signed in or still saying hello. */
  readonly socketCount: number;
  /** Signed-in sockets on this instance. */
  readonly connectionCount: number;
  /** The greatest `seq` the hub has fanned out. */
  readonly position: number;
}

/** What the metrics need to know when they are made. */
export interface MetricsOptions {
  db: Db;
  /** The server's version, in `btalk_build_info`. */
  version: string;
  /**
   * Whether anyone can scrape them (METRICS_TOKEN or METRICS_PORT): only then are the process's
   * default metrics collected (they add observers that live as long as the process).
   */
  scraped: boolean;
}

/**
 * The server's Prometheus metrics: one registry per app context (tests build many apps in one
 * process, so never prom-client's global registry). The parts of the server report into it
 * (HTTP hook, realtime hub, delivery worker, schedulers); gauges of state (sockets, queues, the
 * database pool) are read when scraped. Names are listed in docs/metrics.md.
 */
export class Metrics {
  readonly registry = new Registry();
  /** Whether anyone can scrape them (METRICS_TOKEN or METRICS_PORT); if not, requests are not counted. */
  readonly scraped: boolean;
  readonly #hubs = new Set<RealtimeSource>();
  readonly #requests: Counter<'method' | 'route' | 'status'>;
  readonly #duration: Histogram<'method' | 'route' | 'status_class'>;
  readonly #deliveryLag: Histogram;
  readonly #deliveries: Counter<'channel' | 'outcome'>;
  readonly #escalationRuns: Counter<'outcome'>;
  readonly #escalated: Counter;
  readonly #directorySyncs: Counter<'outcome'>;

  constructor(options: MetricsOptions) {
    const registers = [this.registry];
    this.scraped = options.scraped;
    if (options.scraped) collectDefaultMetrics({ register: this.registry });
    new Gauge({
      name: 'btalk_build_info',
      help: 'Always 1; the version label says which BTalk runs.',
      labelNames: ['version'],
      registers,
    }).set({ version: options.version }, 1);

    this.#requests = new Counter({
      name: 'btalk_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status code.',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.#duration = new Histogram({
      name: 'btalk_http_request_duration_seconds',
      help: 'Time from a request to its answer, by method, route pattern and status class.',
      labelNames: ['method', 'route', 'status_class'],
      buckets: HTTP_BUCKETS,
      registers,
    });

    const hubs = this.#hubs;
    const sum = (read: (hub: RealtimeSource) => number) => [...hubs].reduce((n, hub) => n + read(hub), 0);
    new Gauge({
      name: 'btalk_realtime_open_sockets',
      help: 'WebSockets open on this instance (signed in or still sending hello).',
      registers,
      collect() {
        this.set(sum((hub) => hub.socketCount));
      },
    });
    new Gauge({
      name: 'btalk_realtime_signed_in_sockets',
      help: 'Signed-in WebSockets on this instance.',
      registers,
      collect() {
        this.set(sum((hub) => hub.connectionCount));
      },
    });
    this.#deliveryLag = new Histogram({
      name: 'btalk_realtime_delivery_lag_seconds',
      help: "Time from an event's commit (its created_at in the event log) to the hub writing it to its sockets.",
      buckets: LAG_BUCKETS,
      registers,
    });

    this.#deliveries = new Counter({
      name: 'btalk_notification_deliveries_total',
      help: 'Tries of notification deliveries by channel and outcome: sent, skipped, retry (failed, tried again later) or dead (failed for good).',
      labelNames: ['channel', 'outcome'],
      registers,
    });
    for (const channel of NotificationChannel.options) {
      for (const outcome of ['sent', 'skipped', 'retry', 'dead'] as const) {
        this.#deliveries.inc({ channel, outcome }, 0);
      }
    }

    this.#escalationRuns = new Counter({
      name: 'btalk_escalation_runs_total',
      help: 'Runs of the call-tree escalation scheduler: escalated (someone), idle (nobody due), skipped (another instance holds the lease) or failed.',
      labelNames: ['outcome'],
      registers,
    });
    this.#escalated = new Counter({
      name: 'btalk_escalations_total',
      help: 'People escalated to their manager by the scheduler.',
      registers,
    });
    this.#directorySyncs = new Counter({
      name: 'btalk_directory_sync_runs_total',
      help: 'Runs of the periodic directory sync: synced, skipped (another instance holds the lease, or nothing listed) or failed.',
      labelNames: ['outcome'],
      registers,
    });
    for (const outcome of ['escalated', 'idle', 'skipped', 'failed'])
      this.#escalationRuns.inc({ outcome }, 0);
    for (const outcome of ['synced', 'skipped', 'failed']) this.#directorySyncs.inc({ outcome }, 0);

    // The pool first: a scrape reads it before its own queries take a connection.
    registerDatabaseMetrics(this.registry, options.db);
    registerQueueMetrics(this.registry, options.db, () => this.#hubPosition());
  }

  /** Counts one answered request; `route` is the router's pattern, undefined when none matched. */
  request(method: string, route: string | undefined, status: number, seconds: number): void {
    const m = METHODS.has(method) ? method : 'OTHER';
    const r = route ?? UNMATCHED_ROUTE;
    this.#requests.inc({ method: m, route: r, status: String(status) });
    this.#duration.observe({ method: m, route: r, status_class: `${Math.floor(status / 100)}xx` }, seconds);
  }

  /** Lets a scrape read a hub's sockets and position; answers how to stop. */
  trackHub(hub: RealtimeSource): () => void {
    this.#hubs.add(hub);
    return () => this.#hubs.delete(hub);
  }

  /** The least position of the tracked hubs (the one furthest behind), or null without a hub. */
  #hubPosition(): number | null {
    let least: number | null = null;
    for (const hub of this.#hubs) least = least === null ? hub.position : Math.min(least, hub.position);
    return least;
  }

  /** An event committed at `createdAt` (ISO-8601) was written to the hub's sockets at `nowMs`. */
  delivered(createdAt: string, nowMs: number = Date.now()): void {
    const committed = Date.parse(createdAt);
    if (Number.isNaN(committed)) return;
    // Another instance's clock may be a little ahead: never a negative lag.
    this.#deliveryLag.observe(Math.max(0, nowMs - committed) / 1000);
  }

  /** What the notification worker reports: each try's outcome, by channel. */
  readonly deliveries: DeliveryObserver = {
    delivered: (channel: string, outcome: DeliveryOutcome, count: number) => {
      this.#deliveries.inc({ channel, outcome }, count);
    },
  };

  /** A run of the escalation scheduler ended. */
  readonly escalationRun = (outcome: EscalationRunOutcome, escalated: number): void => {
    this.#escalationRuns.inc({ outcome });
    if (escalated > 0) this.#escalated.inc(escalated);
  };

  /** A run of the periodic directory sync ended. */
  readonly directorySyncRun = (outcome: 'synced' | 'skipped' | 'failed'): void => {
    this.#directorySyncs.inc({ outcome });
  };

  /** The text a scrape answers, and its content type. */
  async scrape(): Promise<{ body: string; contentType: string }> {
    return { body: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}
