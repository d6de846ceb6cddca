import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from '../config/index.ts';
import { AppError } from '../http/errors.ts';
import type { Metrics } from './metrics.ts';

/** Where Prometheus scrapes, on the main port (with METRICS_TOKEN) and on METRICS_PORT. */
export const METRICS_PATH = '/metrics';

/**
 * Counts every answered request by method, the route pattern the router matched
 * (`/api/topics/:topicId/posts`, never the raw URL: the label's values stay few) and status.
 */
export function registerHttpMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', async (request, reply) => {
    metrics.request(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
  });
}

/**
 * Whether a request's Authorization is `Bearer <token>`. Both sides are hashed first, so the
 * constant-time comparison also hides the token's length.
 */
function bearerIs(authorization: string | undefined, token: string): boolean {
  const sent = /^Bearer +(\S+) *$/i.exec(authorization ?? '')?.[1] ?? '';
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(sent), digest(token)) && sent.length > 0;
}

/**
 * `GET /metrics` on the main port: with METRICS_TOKEN, for a bearer of it (401 in the envelope
 * otherwise); without it, a 404 as for any path the server does not serve (not the web app's page).
 * It lies outside /api: no x-api-key, rate limit or terms gate applies.
 */
export function metricsRoute(config: Config, metrics: Metrics) {
  return async (app: FastifyInstance) => {
    app.get(METRICS_PATH, { schema: { hide: true } }, async (request, reply) => {
      const { token } = config.metrics;
      if (token === null) {
        throw new AppError(
          'notFound',
          'Metrics are not served on this port: set METRICS_TOKEN, or METRICS_PORT for a port of their own.',
        );
      }
      if (!bearerIs(request.headers.authorization, token)) {
        reply.header('www-authenticate', 'Bearer realm="metrics"');
        throw new AppError(
          'unauthenticated',
          request.headers.authorization
            ? 'The bearer token is not METRICS_TOKEN.'
            : 'Send METRICS_TOKEN as a bearer token (Authorization: Bearer <token>).',
        );
      }
      const { body, contentType } = await metrics.scrape();
      return reply.header('cache-control', 'no-store').type(contentType).send(body);
    });
  };
}

/** The separate metrics listener of METRICS_PORT, and how to stop it. */
export interface MetricsListener {
  /** Its address, e.g. `http://127.0.0.1:9464`. */
  url: string;
  close(): Promise<void>;
}

/**
 * Listens on METRICS_HOST:METRICS_PORT and answers `GET /metrics` (and HEAD) without a token,
 * anything else 404: a port that only Prometheus reaches (a private address or a firewall keeps
 * others out). Plain node:http, so scrapes stay out of the main server's request metrics and hooks.
 */
export async function startMetricsListener(
  metrics: Metrics,
  where: { host: string; port: number },
  log: FastifyBaseLogger,
): Promise<MetricsListener> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== METRICS_PATH) {
      response
        .writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
        .end(`Only ${METRICS_PATH} here.\n`);
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end();
      return;
    }
    metrics.scrape().then(
      ({ body, contentType }) => {
        response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
        response.end(request.method === 'HEAD' ? undefined : body);
      },
      (error: unknown) => {
        log.error({ err: error }, 'metrics: the scrape failed');
        response
          .writeHead(500, { 'content-type': 'text/plain; charset=utf-8' })
          .end('The scrape failed: see the log.\n');
      },
    );
  });
  // Idle keep-alive connections of a scraper must not hold a shutdown up.
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    const refuse = (error: Error) =>
      reject(
        new Error(
          `METRICS_PORT, METRICS_HOST: cannot listen on ${where.host}:${where.port} (${error.message})`,
          {
            cause: error,
          },
        ),
      );
    server.once('error', refuse);
    server.listen(where.port, where.host, () => {
      server.off('error', refuse);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : where.port;
  const host = where.host.includes(':') ? `[${where.host}]` : where.host;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
