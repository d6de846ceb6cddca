import { HealthResponse, InitConfig, okEnvelope, ReadyResponse } from '@btalk/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { checkReady } from '../../db/index.ts';
import { ok } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';

/**
 * `GET /api/health` and `GET /api/ready`: liveness and readiness for probes and operators. Both answer
 * without `x-api-key` (app.ts), so they say nothing secret: a status, the version, the database kind
 * and the newest migration's name.
 */
export function systemRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/health',
      {
        schema: {
          summary: 'The process is alive (no x-api-key needed)',
          security: [],
          response: { 200: okEnvelope(HealthResponse) },
        },
      },
      async () =>
        ok({ status: 'ok' as const, version: ctx.version, uptimeSeconds: Math.round(process.uptime()) }),
    );

    app.get(
      '/ready',
      {
        schema: {
          summary: 'The database is reachable and migrated, and the file store answers (no x-api-key needed)',
          security: [],
          response: { 200: okEnvelope(ReadyResponse) },
        },
      },
      async (request) => {
        // Stopping (SIGTERM): load balancers and probes must send the traffic elsewhere, at once.
        if (ctx.lifecycle.draining) {
          throw new AppError('unavailable', 'Not ready: this instance is shutting down.', [
            { field: 'instance', reason: 'shutting down' },
          ]);
        }
        // Side by side: the file store's check answers within a few seconds (S3_CHECK_TIMEOUT_MS).
        const [ready, files] = await Promise.all([checkReady(ctx.db), ctx.files.check()]);
        if (!ready.ok) {
          // Probes call this without a key: the reason (a driver's message may name hosts, users or
          // paths) goes to the log only.
          request.log.warn({ reason: ready.reason }, 'not ready');
          throw new AppError(
            'unavailable',
            'Not ready: the database is unreachable or not migrated (see the log).',
          );
        }
        if (!files.ok) {
          // The reason names no host and no secret; the store's own message goes to the log.
          request.log.warn({ reason: files.reason, detail: files.detail }, 'not ready: file store');
          throw new AppError('unavailable', `Not ready: ${files.reason} (see the log).`, [
            { field: 'fileStore', reason: files.reason },
          ]);
        }
        return ok({ status: 'ready' as const, database: ctx.db.kind, migration: ready.migration });
      },
    );
  };
}

/** The runtime configuration of the web app (SPEC.md section 1). Nothing secret goes in here. */
export function initConfig(ctx: AppContext): InitConfig {
  const { config } = ctx;
  return {
    productName: 'BTalk',
    apiBase: `${config.publicUrl}/api`,
    apiKey: config.apiKey,
    directory: {
      kind: config.directory.kind,
      signInMode: config.directory.signInMode,
      // A directory without Graph: the web app's Graph client is then pointed at nothing it can call.
      graphBase: config.directory.graphBase ?? '',
    },
    teamsAppLink: config.teamsAppLink,
    teamsTabTestHosts: config.teamsTabTestHosts,
    features: { analytics: config.features.analytics, webPush: config.features.webPush },
    uploads: { maxBytes: config.uploads.maxBytes, maxFiles: config.uploads.maxFiles },
    version: ctx.version,
  };
}

/** `GET /__/firebase/init.json`, on the web origin rather than under /api (no key needed). */
export function initConfigRoute(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/__/firebase/init.json',
      { schema: { hide: true, response: { 200: InitConfig } } },
      async (_req, reply) => {
        reply.header('cache-control', 'no-cache');
        return initConfig(ctx);
      },
    );
  };
}
