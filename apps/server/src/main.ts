import { buildApp } from './app.ts';
import { EscalationScheduler } from './calltree/escalation.ts';
import { ConfigError, loadConfig } from './config/index.ts';
import { createContext } from './context.ts';
import { durabilitySettings, migrateToLatest, openConfiguredDatabase } from './db/index.ts';
import { seedDevelopment } from './directory/seedDevelopment.ts';
import { DirectorySyncScheduler } from './directory/syncScheduler.ts';
import { secureDataDir } from './files/dataDir.ts';
import { UploadCleaner } from './files/uploadCleaner.ts';
import { NotificationWorker } from './notifications/worker.ts';
import { serverVersion } from './version.ts';

/** Largest time a SIGTERM may take before the process exits anyway. */
const SHUTDOWN_DEADLINE_MS = 4000;

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
  });

  // Uploads never taken into a post: every instance runs the clean-up; each row is deleted once.
  const uploads = new UploadCleaner({
    db: db.kysely,
    files: ctx.files,
    ttlHours: config.uploads.unpostedTtlHours,
    onRemoved: (count) => app.log.info({ count }, 'removed uploads that were never posted'),
    onError: (error) => app.log.error({ err: error }, 'clean-up of unposted uploads failed; retrying'),
  });

  // Directory sync (people, admin roles, disabled accounts): one instance per interval, by a lease.
  const directorySync =
    config.directorySyncIntervalMinutes > 0
      ? new DirectorySyncScheduler({
          ctx,
          intervalMs: config.directorySyncIntervalMinutes * 60_000,
          onSynced: (summary) => app.log.info(summary, 'directory sync done'),
          onError: (error) => app.log.error({ err: error }, 'directory sync failed; retrying next interval'),
        })
      : null;

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS).unref();
    Promise.all([escalations.stop(), deliveries.stop(), uploads.stop(), directorySync?.stop()])
      .then(() => app.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          app.log.error({ err: error }, 'error while shutting down');
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  escalations.start();
  deliveries.start();
  directorySync?.start();
  uploads.start();
  app.log.info(
    { database: db.kind, url: config.publicUrl, durability: await durabilitySettings(db) },
    `BTalk ${serverVersion} is running at ${config.publicUrl} (${db.kind === 'sqlite' ? `SQLite in ${config.dataDir}` : 'PostgreSQL'})`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
