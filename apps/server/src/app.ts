import { randomUUID } from 'node:crypto';
import { EVENT_SEQ_HEADER } from '@btalk/contracts';
import fastifyCompress from '@fastify/compress';
import fastifySwagger from '@fastify/swagger';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config/index.ts';
import type { AppContext } from './context.ts';
import { registerDevelopmentDirectory } from './directory/index.ts';
import { registerApiKeyCheck } from './http/api-key.ts';
import { AppError, errorHandler } from './http/errors.ts';
import { registerNulByteCheck } from './http/nul-bytes.ts';
import { registerPublicHostRedirect } from './http/publicHost.ts';
import { registerRateLimits } from './http/rateLimits.ts';
import { registerSecurityHeaders } from './http/securityHeaders.ts';
import { responseSerializerCompiler } from './http/serializer.ts';
import { metricsRoute, registerHttpMetrics } from './metrics/http.ts';
import { ACKNOWLEDGE_LINK_ROUTE } from './notifications/acknowledgeLinks.ts';
import { apiRoutes } from './routes/index.ts';
import { initConfigRoute } from './routes/system/system.ts';
import { UNSUBSCRIBE_PATH } from './routes/unsubscribe/unsubscribe.ts';
import { BOT_MESSAGES_PATH } from './teams/bot.ts';
import { registerWebApp } from './web/static.ts';

/** Routes under /api that do not take the x-api-key header (route patterns, as the router matched them). */
const API_KEY_EXEMPT = [
  // Load balancers and Kubernetes probes send no key; both say nothing secret.
  '/api/health',
  '/api/ready',
  // The OpenAPI document is for people reading the API.
  '/api/docs',
  // Browsers cannot set headers on a WebSocket; the socket's first message carries the key.
  '/api/realtime',
  // Mail clients POST the one-click unsubscribe of RFC 8058 with nothing but the link's token.
  UNSUBSCRIBE_PATH,
  // A push notification's Acknowledge action comes from a service worker, with the link's token only.
  ACKNOWLEDGE_LINK_ROUTE,
  // The Teams bot's activities carry the Bot Framework's signed token instead (teams/bot.ts).
  BOT_MESSAGES_PATH,
];

/** The API answers worth compressing: JSON and text, but no event stream. */
const API_COMPRESSIBLE = /^(?:application\/(?:[\w.-]+\+)?json|text\/(?!event-stream)[\w.+-]+)\s*(?:;|$)/i;

/** Options that only tests and tools change. */
export interface BuildOptions {
  /** A pino logger configuration, or false for none (tests). */
  logger?: boolean | object;
}

/**
 * Fastify's `trustProxy` for TRUST_PROXY. Fastify no longer takes a hop count (it cannot check the
 * nearest peer), so a count becomes "the nearest n peers are proxies": right only when BTalk can be
 * reached through those proxies alone, which the README says.
 */
function trustedProxies(
  trust: Config['trustProxy'],
): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust;
  return (_address, hop) => hop < trust;
}

/**
 * Builds the whole server: the API under /api, the web app's configuration and the web app. Does
 * not listen: `main.ts` does, and tests call `app.inject()`.
 */
export async function buildApp(ctx: AppContext, options: BuildOptions = {}): Promise<FastifyInstance> {
  const { config } = ctx;
  const app = Fastify({
    logger: options.logger ?? { level: config.logLevel },
    bodyLimit: config.bodyLimitBytes,
    genReqId: (req) => {
      const sent = req.headers['x-request-id'];
      return typeof sent === 'string' && /^[\w-]{8,64}$/.test(sent) ? sent : randomUUID();
    },
    forceCloseConnections: 'idle',
    // Only the proxies named in TRUST_PROXY may say who the client is (X-Forwarded-For): believing
    // anyone would let a client pick a new address per request and walk past the rate limits.
    trustProxy: trustedProxies(config.trustProxy),
    // Slow clients (slowloris) may hold a connection for the headers and request timeouts, far
    // below Node's 300 s. Once upgraded, realtime WebSockets are out of Node's request tracking.
    requestTimeout: config.timeouts.requestMs,
    // Longer than a load balancer's idle timeout (60 s on most), so that it, not BTalk, closes an
    // idle connection: otherwise it may send a request down one BTalk is closing (a 502).
    keepAliveTimeout: config.timeouts.keepAliveMs,
    http: {
      headersTimeout: config.timeouts.headersMs,
      requestTimeout: config.timeouts.requestMs,
      // Node checks the two timeouts every 30 s by default, which would stretch a 10 s limit to 40 s.
      connectionsCheckingInterval: Math.min(1000, config.timeouts.headersMs / 2),
    },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  // Answers are checked against their zod schema outside production, and sent as they are in it.
  app.setSerializerCompiler(responseSerializerCompiler(config.env !== 'production'));
  app.setErrorHandler(errorHandler);
  await registerSecurityHeaders(app, config);
  if (ctx.metrics.scraped) registerHttpMetrics(app, ctx.metrics);
  registerPublicHostRedirect(app, config);
  // Callback hooks (here and in http/) rather than async ones: no promise per request and hook.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', 'nosniff');
    // Stopping: a proxy must not send another request down this connection (lifecycle.ts).
    if (ctx.lifecycle.draining) reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('onClose', async () => {
    await ctx.db.close();
    await ctx.files.close();
  });

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'BTalk API', version: ctx.version },
      components: { securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } } },
      security: [{ apiKey: [] }],
    },
    transform: jsonSchemaTransform,
  });

  // Before any route, as @fastify/websocket requires; the realtime stream is its only user.
  await app.register(fastifyWebsocket, {
    options: { maxPayload: 64 * 1024 },
    // The plugin's own preClose would close every socket without a code (1005) before the realtime
    // hub could say "going away" (1001, reconnect elsewhere): the hub closes its sockets itself.
    preClose: (done) => done(),
  });

  registerApiKeyCheck(app, config.apiKey, (route) => API_KEY_EXEMPT.includes(route));
  registerNulByteCheck(app);

  await app.register(
    async (api) => {
      // Answers of 1 KB and more in brotli or gzip, as the client accepts (brotli at quality 4: fast
      // enough to compress on the fly). JSON and text only (CSV reports): attachment downloads
      // (images, application/octet-stream) keep their Content-Length, and the realtime WebSocket
      // is never compressed here. Up to 512 KB in one synchronous call (a 10,000-person roll-up,
      // 230 KB, in about 2 ms): the plugin's stream path, its default above 8 KB on two cores, went
      // through the thread pool chunk by chunk and made 50 roll-up watchers wait about 250 ms more
      // each (docs/benchmarks.md, the crisis minute).
      await api.register(fastifyCompress, {
        threshold: 1024,
        syncThreshold: 512 * 1024,
        encodings: ['br', 'gzip'],
        customTypes: API_COMPRESSIBLE,
      });
      // Where the realtime stream was when the request arrived: the answer reflects at least that
      // much, so the web client keeps it through its stream's first `ready` (RealtimeProvider).
      api.addHook('onRequest', (_request, reply, done) => {
        const seq = ctx.stream.get();
        if (seq !== null) reply.header(EVENT_SEQ_HEADER, String(seq));
        done();
      });
      // One limiter (and Redis connection) for every route that asks for a limit.
      await registerRateLimits(api, ctx);
      for (const routes of apiRoutes(ctx)) await api.register(routes);
      api.get('/docs', { schema: { hide: true } }, async () => app.swagger());
      // Anything else under /api is a 404 in the envelope, not the web app's index.html.
      api.all('/*', { schema: { hide: true } }, async (request) => {
        throw new AppError('notFound', `No API route ${request.method} ${request.url.split('?')[0]}.`);
      });
    },
    { prefix: '/api' },
  );
  await app.register(initConfigRoute(ctx));
  await app.register(metricsRoute(config, ctx.metrics));
  await registerDevelopmentDirectory(app, ctx);
  await registerWebApp(app, config.webDist);
  return app;
}
