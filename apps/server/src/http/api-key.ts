import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { AppError } from './errors.ts';

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Every `/api` route takes the web client's key in `x-api-key` (SPEC.md section 6), but those that
 * `exempt` names by their route pattern (`/api/health`) or, for a wildcard route, decoded path.
 * Registered as an onRequest hook, so it runs before parsing, validation and authentication.
 */
export function registerApiKeyCheck(
  app: FastifyInstance,
  apiKey: string,
  exempt: (route: string) => boolean,
) {
  // A callback hook, not an async one: it runs on every request and never waits.
  app.addHook('onRequest', (request, _reply, done) => {
    // The route the router matched, not the raw URL: the router decodes `/%61pi/topics` to
    // /api/topics, so a check on `request.url` would let the encoded spelling through.
    const route = request.routeOptions.url;
    if (route === undefined || !(route === '/api' || route.startsWith('/api/'))) return done();
    // A wildcard route (the /api 404) is judged by the path the router decoded for it, so that
    // another method on an exempt path is a 404 there too.
    const wildcard = (request.params as { '*'?: unknown })['*'];
    const path = route.endsWith('/*') && typeof wildcard === 'string' ? route.slice(0, -1) + wildcard : route;
    if (exempt(path)) return done();
    const sent = request.headers['x-api-key'];
    if (typeof sent !== 'string' || !same(sent, apiKey)) {
      return done(
        new AppError(
          'badApiKey',
          sent
            ? "The x-api-key header is not this server's client key."
            : 'Send the client key in the x-api-key header.',
        ),
      );
    }
    done();
  });
}
