import { Gauge, Histogram, type Registry } from 'prom-client';
import type { Db } from '../db/index.ts';

/** Transactions per SQLite commit: one alone, up to the writer's largest batch (64). */
const BATCH_BUCKETS = [1, 2, 4, 8, 16, 32, 64];

/**
 * How busy the database's connections are. PostgreSQL: the pool's connections (open, idle, the
 * largest number) and the queries waiting for one, read when scraped. A SQLite file: the
 * transactions waiting for the one write connection, and the size of each group commit
 * (db/sqlite-writer.ts; its count is the number of commits, its sum the transactions). Only the
 * engine's own families are registered; an in-memory database (tests) has neither.
 */
export function registerDatabaseMetrics(registry: Registry, db: Db): void {
  const activity = db.activity;
  const registers = [registry];
  if (activity?.kind === 'postgres') {
    type PoolUse = ReturnType<typeof activity.pool>;
    const pooled = (name: string, help: string, read: (pool: PoolUse) => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read(activity.pool()));
        },
      });
    pooled(
      'btalk_db_pool_connections',
      'PostgreSQL connections open in the pool (busy and idle).',
      (p) => p.total,
    );
    pooled(
      'btalk_db_pool_idle_connections',
      'PostgreSQL connections open in the pool and idle.',
      (p) => p.idle,
    );
    pooled(
      'btalk_db_pool_waiting_requests',
      'Queries waiting for a PostgreSQL connection (the pool is at its largest and all are busy).',
      (p) => p.waiting,
    );
    pooled(
      'btalk_db_pool_max_connections',
      'The largest number of PostgreSQL connections the pool opens (DATABASE_POOL_SIZE).',
      (p) => p.max,
    );
  } else if (activity?.kind === 'sqlite') {
    const { writer } = activity;
    new Gauge({
      name: 'btalk_sqlite_write_waiting_transactions',
      help: 'Transactions waiting for the SQLite write connection.',
      registers,
      collect() {
        this.set(writer.waiting);
      },
    });
    const batches = new Histogram({
      name: 'btalk_sqlite_commit_batch_size',
      help: 'Transactions made durable by each SQLite group commit (one COMMIT, one fsync).',
      buckets: BATCH_BUCKETS,
      registers,
    });
    // For as long as the database is open: the metrics live as long as their app context.
    writer.onCommit((size) => batches.observe(size));
  }
}
