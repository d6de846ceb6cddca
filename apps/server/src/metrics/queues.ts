import { Gauge, type Registry } from 'prom-client';
import type { Db } from '../db/index.ts';
import { headSeq } from '../realtime/log.ts';

/**
 * Gauges of the database-backed queues, each read with one cheap query when scraped (never a query
 * per event or per notification): the event log's newest `seq` against the realtime hub's
 * position, and the notification outbox's depth. Each instance reports the same outbox numbers
 * (one shared database): dashboards take their max. A query that fails reports NaN, so a graph
 * shows a gap rather than a false zero, and the rest of the scrape still answers.
 */
export function registerQueueMetrics(registry: Registry, db: Db, hubPosition: () => number | null): void {
  const registers = [registry];
  // A scrape collects its gauges side by side: their queries take turns, so that a scrape holds at
  // most one database connection (and the pool's gauges are not swollen by the scrape itself).
  let turn: Promise<void> = Promise.resolve();
  /** Sets what `value` answers, or NaN when it fails. */
  const read = (gauge: Gauge, value: () => Promise<number>): Promise<void> => {
    const mine = turn.then(async () => {
      try {
        gauge.set(await value());
      } catch {
        gauge.set(Number.NaN);
      }
    });
    turn = mine;
    return mine;
  };

  new Gauge({
    name: 'btalk_realtime_event_log_lag_events',
    help: "Events committed to the log that this instance's realtime hub has not fanned out yet.",
    registers,
    async collect() {
      const position = hubPosition();
      if (position === null) return;
      await read(this, async () => Math.max(0, (await headSeq(db.kysely)) - position));
    },
  });

  new Gauge({
    name: 'btalk_outbox_undispatched_notifications',
    help: 'Notifications written to the outbox that no worker has turned into deliveries yet.',
    registers,
    async collect() {
      await read(this, async () => {
        const row = await db.kysely
          .selectFrom('notifications')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('dispatched_at', 'is', null)
          .executeTakeFirst();
        return Number(row?.n ?? 0);
      });
    },
  });

  new Gauge({
    name: 'btalk_outbox_due_deliveries',
    help: 'Deliveries (push, e-mail, Teams) due now and not sent yet: first tries and retries whose time has come.',
    registers,
    async collect() {
      await read(this, async () => {
        const row = await db.kysely
          .selectFrom('notification_deliveries')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('status', '=', 'pending')
          .where('next_attempt_at', '<=', new Date().toISOString())
          .executeTakeFirst();
        return Number(row?.n ?? 0);
      });
    },
  });
}
