/**
 * Notification benchmark (issue 11): a call-tree event over N people (10,000 by default) who all have
 * browser push on, started over HTTP (the start writes every notification into the outbox in the same
 * transaction), then the delivery worker drains the outbox through the real Web Push channel
 * (web-push: VAPID, aes128gcm) to a local push service on loopback that checks each request's VAPID
 * signature and decrypts its payload. Bars: the start within the call tree's 2 s, the drain at least
 * 500 deliveries a second. SQLite, and PostgreSQL when reachable.
 *
 *   node --experimental-strip-types --disable-warning=ExperimentalWarning bench/notifications.ts [people]
 */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { insertInChunks } from '../apps/server/src/calltree/bulk.ts';
import { loadConfig } from '../apps/server/src/config/index.ts';
import { createContext } from '../apps/server/src/context.ts';
import { type Db, migrateToLatest, openDatabase } from '../apps/server/src/db/index.ts';
import { newId, now } from '../apps/server/src/ids.ts';
import { createPushChannel } from '../apps/server/src/notifications/channels/push.ts';
import { DEFAULT_SETTINGS } from '../apps/server/src/notifications/settings.ts';
import { NotificationWorker } from '../apps/server/src/notifications/worker.ts';
import { directory, listenAs } from './directory.ts';

const PEOPLE = Number(process.argv[2] ?? 10_000);
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** The local push service, in its own process (bench/push-service-process.ts). */
function startPushProcess() {
  const child = fork(new URL('./push-service-process.ts', import.meta.url), [], {
    execArgv: [
      '--experimental-strip-types',
      '--disable-warning=ExperimentalWarning',
      ...(process.env.PUSH_PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof2'] : []),
    ],
  });
  const next = <T>(type: string) =>
    new Promise<T>((resolve) => {
      const on = (m: unknown) => {
        if ((m as { type: string }).type !== type) return;
        child.off('message', on);
        resolve(m as T);
      };
      child.on('message', on);
    });
  const ready = next('ready');
  return {
    ready,
    async subscribe(count: number, key: string) {
      const answer = next<{ made: { endpoint: string; keys: { p256dh: string; auth: string } }[] }>(
        'subscribed',
      );
      child.send({ type: 'subscribe', count, key });
      return (await answer).made;
    },
    async count() {
      const answer = next<{ accepted: number; refused: number; first: unknown }>('count');
      child.send({ type: 'count' });
      return answer;
    },
    close() {
      child.send({ type: 'close' });
    },
  };
}

async function run(label: string, db: Db): Promise<void> {
  await migrateToLatest(db);
  const people = directory(PEOPLE);
  await insertInChunks(db.kysely, 'users', people);
  const push = startPushProcess();
  await push.ready;
  const config = loadConfig({
    BTALK_ENV: 'test',
    DATA_DIR: ':memory:',
    LOG_LEVEL: 'silent',
    WEB_PUSH: 'true',
  });
  const ctx = createContext(config, db, 'bench');
  const vapid = ctx.notifications.vapid!;
  // Everyone has push on and one browser subscribed at the local push service.
  const settings = JSON.stringify({
    ...DEFAULT_SETTINGS,
    channels: { ...DEFAULT_SETTINGS.channels, push: true, email: false },
  });
  await insertInChunks(
    db.kysely,
    'notification_settings',
    people.map((p) => ({ user_id: p.id, settings, updated_at: now() })),
  );
  const browsers = await push.subscribe(people.length, vapid.publicKey);
  await insertInChunks(
    db.kysely,
    'push_subscriptions',
    people.map((p, i) => {
      const browser = browsers[i]!;
      return {
        id: newId(),
        user_id: p.id,
        endpoint: browser.endpoint,
        p256dh: browser.keys.p256dh,
        auth: browser.keys.auth,
        created_at: now(),
        last_success_at: null,
      };
    }),
  );
  const { call, close } = await listenAs(ctx, people[0]!.id);
  try {
    const tree = (await call('POST', '/calltree/trees', { name: 'Everyone', rootUserId: people[0]!.id }))
      .json;
    const t0 = performance.now();
    const { json: event } = await call('POST', `/calltree/trees/${tree.data.tree.id}/events`, {
      title: 'Bench drill',
      message: 'Answer now.',
      kind: 'drill',
    });
    const startMs = performance.now() - t0;
    const enqueued = await db.kysely
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('dispatched_at', 'is', null)
      .executeTakeFirstOrThrow();
    if (Number(enqueued.n) !== PEOPLE)
      throw new Error(`expected ${PEOPLE} notifications, found ${enqueued.n}`);
    if (event.data.totals.total !== PEOPLE) throw new Error('the event does not target everyone');

    const worker = new NotificationWorker({
      db: db.kysely,
      channels: [createPushChannel({ db: db.kysely, vapid })],
      publicUrl: config.publicUrl,
      maxAttempts: 8,
      emailDelayMs: 0,
      batchSize: 1000,
      concurrency: 64,
    });
    const d0 = performance.now();
    const drained = await worker.drain(1000);
    const drainMs = performance.now() - d0;
    const received = await push.count();
    if (drained.sent !== PEOPLE || received.accepted !== PEOPLE) {
      throw new Error(`sent ${drained.sent}, the push service decrypted ${received.accepted}, of ${PEOPLE}`);
    }
    const first = received.first as { title: string; urgent: boolean };
    if (!first.title.includes('Bench drill') || first.urgent !== true) throw new Error('unexpected payload');
    console.log(
      JSON.stringify({
        database: label,
        people: PEOPLE,
        startEventMs: Math.round(startMs),
        notificationsEnqueued: Number(enqueued.n),
        drainMs: Math.round(drainMs),
        deliveriesPerSecond: Math.round((PEOPLE / drainMs) * 1000),
        refusedByPushService: received.refused,
      }),
    );
  } finally {
    await close();
    push.close();
  }
}

await run('sqlite', openDatabase({ dataDir: ':memory:' }));
const schema = `btalk_bench_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: PG_URL });
try {
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await run(
    'postgres',
    openDatabase({ databaseUrl: PG_URL, dataDir: ':memory:', pgSchema: schema, poolSize: 10 }),
  );
} catch (error) {
  console.log(
    JSON.stringify({ database: 'postgres', skipped: error instanceof Error ? error.message : String(error) }),
  );
} finally {
  await admin.query(`drop schema if exists ${schema} cascade`).catch(() => {});
  await admin.end().catch(() => {});
}
