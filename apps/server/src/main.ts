import { AnnouncementReminderJob } from './announcements/reminders.ts';
import { buildApp } from './app.ts';
import { EscalationScheduler } from './calltree/escalation.ts';
import { ConfigError, loadConfig } from './config/index.ts';
import { createContext } from './context.ts';
import { durabilitySettings, migrateToLatest, openConfiguredDatabase } from './db/index.ts';
import { seedDevelopment } from './directory/seedDevelopment.ts';
import { DirectorySyncScheduler } from './directory/syncScheduler.ts';
import { secureDataDir } from './files/dataDir.ts';
import { UploadCleaner } from './files/uploadCleaner.ts';
import { shutDown } from './lifecycle.ts';
import { type MetricsListener, startMetricsListener } from './metrics/http.ts';
import { NotificationWorker } from './notifications/worker.ts';
import { serverVersion } from './version.ts';

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  // Before anything writes there: DATA_DIR holds the database, secrets and attachments.
  const tightened = secureDataDir(config.dataDir);
  const db = openConfiguredDatabase(config);
  const applied = await migrateToLatest(db);
  const ctx = createContext(config, db, serverVersion);
  const app = await buildApp(ctx);
  if (applied.length > 0) app.log.info({ migrations: applied }, 'applied migrations');
  if (tightened.length > 0) {
    app.log.warn(
      { paths: tightened },
      'DATA_DIR was open to other users: its folders are now 0700 and its files 0600',
    );
  }
  if (config.env === 'development' && config.directory.kind === 'development') {
    const seeded = await seedDevelopment(ctx);
    app.log.info(seeded, 'development directory people and example topics are in place');
  }
  // Call-tree escalations: every instance runs the scheduler; a lease row lets one at a time work.
  const escalations = new EscalationScheduler({
    db: db.kysely,
    bus: ctx.bus,
    onError: (error) => app.log.error({ err: error }, 'call-tree escalation run failed; retrying'),
    onRun: ctx.metrics.escalationRun,
  });

  // Notification deliveries (push, e-mail): every instance runs a worker; rows are claimed, so each
  // delivery is sent by one of them.
  const deliveries = new NotificationWorker({
    db: db.kysely,
    channels: ctx.notifications.channels,
    publicUrl: config.publicUrl,
    bus: ctx.bus,
    maxAttempts: config.notifications.maxAttempts,
    emailDelayMs: config.notifications.emailDelaySeconds * 1000,
    onError: (error) => app.log.error({ err: error }, 'notification delivery round failed; retrying'),
    observer: ctx.metrics.deliveries,
  });

  // Uploads never taken into a post: every instance runs the clean-up; each row is deleted once.
  const uploads = new UploadCleaner({
    db: db.kysely,
    files: ctx.files,
    ttlHours: config.uploads.unpostedTtlHours,
    onRemoved: (count) => app.log.info({ count }, 'removed uploads that were never posted'),
    onError: (error) => app.log.error({ err: error }, 'clean-up of unposted uploads failed; retrying'),
  });

  // Important posts' automatic reminders: every instance runs the job; a lease lets one at a time
  // work, and each reminder is taken by a conditional update, so it goes once.
  const announcementReminders = new AnnouncementReminderJob({
    db: db.kysely,
    bus: ctx.bus,
    onError: (error) => app.log.error({ err: error }, 'announcement reminders failed; retrying'),
  });

  // Directory sync (people, admin roles, disabled accounts): one instance per interval, by a lease.
  const directorySync =
    config.directorySyncIntervalMinutes > 0
      ? new DirectorySyncScheduler({
          ctx,
          intervalMs: config.directorySyncIntervalMinutes * 60_000,
          onSynced: (summary) => app.log.info(summary, 'directory sync done'),
          onError: (error) => app.log.error({ err: error }, 'directory sync failed; retrying next interval'),
          onRun: ctx.metrics.directorySyncRun,
        })
      : null;

  // SIGTERM: not ready at once, serve on for the drain, then stop accepting, close the sockets with
  // 1001, finish the requests in flight, stop the workers, close Redis and the database (lifecycle.ts).
  let stopping = false;
  // METRICS_PORT's listener: it closes last, so scrapes see the drain.
  let metricsListener: MetricsListener | null = null;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    const { drainMs, timeoutMs } = config.shutdown;
    app.log.info({ signal, drainMs, timeoutMs }, 'shutting down: not ready, draining');
    setTimeout(() => {
      app.log.error({ timeoutMs }, 'shutdown took longer than SHUTDOWN_TIMEOUT_SECONDS; exiting');
      process.exit(1);
    }, timeoutMs).unref();
    const workers = [
      escalations,
      deliveries,
      uploads,
      announcementReminders,
      ...(directorySync ? [directorySync] : []),
    ];
    shutDown({ app, lifecycle: ctx.lifecycle, workers, drainMs })
      .then(() => metricsListener?.close())
      .then(
        () => {
          app.log.info('stopped');
          process.exit(0);
        },
        (error: unknown) => {
          app.log.error({ err: error }, 'error while shutting down');
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  if (config.metrics.port !== null) {
    metricsListener = await startMetricsListener(
      ctx.metrics,
      { host: config.metrics.host, port: config.metrics.port },
      app.log,
    );
    app.log.info({ url: `${metricsListener.url}/metrics` }, 'metrics are served on METRICS_PORT');
  }
  escalations.start();
  deliveries.start();
  directorySync?.start();
  uploads.start();
  announcementReminders.start();
  app.log.info(
    { database: db.kind, url: config.publicUrl, durability: await durabilitySettings(db) },
    `BTalk ${serverVersion} is running: open ${config.publicUrl} (${db.kind === 'sqlite' ? `SQLite in ${config.dataDir}` : 'PostgreSQL'})`,
  );
  // The file store is not waited for: /api/ready answers 503 with the reason until it can be used.
  void ctx.files.check().then((files) => {
    const store = config.s3 ? `the S3 bucket ${config.s3.bucket}` : 'DATA_DIR/files';
    if (files.ok) app.log.info({ files: config.s3 ? 's3' : 'local' }, `attachments are kept in ${store}`);
    else
      app.log.warn({ reason: files.reason, detail: files.detail }, `attachments cannot go to ${store} yet`);
  });
  // A person at a terminal (npm start) sees the address to open whatever LOG_LEVEL says; pages
  // opened at another host are sent there (http/publicHost.ts). Log collectors get JSON only.
  if (process.stdout.isTTY) process.stdout.write(`\nBTalk is running: open ${config.publicUrl}\n\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
