import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/index.ts';
import { METRICS_PATH } from '../metrics/http.ts';

/** A Host header's name (lower case; an IPv6 address keeps its brackets) and port, if it names one. */
function splitHost(host: string): { name: string; port: string | undefined } {
  const match = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(host.trim());
  if (!match) return { name: host.trim().toLowerCase(), port: undefined };
  return { name: match[1]!.toLowerCase(), port: match[2] || undefined };
}

/**
 * Whether `host` (the request's Host, or a trusted proxy's X-Forwarded-Host) names PUBLIC_URL's
 * host. Names compare without case; a Host without a port matches at any port, since a proxy that
 * sends `Host: $host` (nginx) drops it, and a loop of redirects would be worse than none.
 */
export function isPublicHost(host: string, publicUrl: URL): boolean {
  const { name, port } = splitHost(host);
  if (name !== publicUrl.hostname.toLowerCase()) return false;
  if (port === undefined) return true;
  const publicPort = publicUrl.port || (publicUrl.protocol === 'https:' ? '443' : '80');
  return Number(port) === Number(publicPort);
}

/** The web app's runtime configuration (routes/system/system.ts): JSON, the same at any host. */
const INIT_CONFIG_PATH = '/__/firebase/init.json';

/**
 * Paths never redirected: the API (probes, the Teams bot and other instances call any address), the
 * metrics, and the web app's configuration (not a page; tools wait for it to see the server is up).
 */
function exempt(path: string): boolean {
  return path === '/api' || path.startsWith('/api/') || path === METRICS_PATH || path === INIT_CONFIG_PATH;
}

/**
 * Sends a page request that arrived at another host than PUBLIC_URL's (http://127.0.0.1:8080 when
 * PUBLIC_URL is http://localhost:8080) to the same path and query at PUBLIC_URL, with a 308. The web
 * app calls the API at PUBLIC_URL and signs in through redirect URIs under it: opened at another
 * host, its calls would be cross-origin and its sign-in would fail. Only GET and HEAD outside /api
 * and /metrics (and the app's init.json); `request.host` is X-Forwarded-Host only from a proxy TRUST_PROXY names.
 * REDIRECT_TO_PUBLIC_URL=false turns it off (a proxy that rewrites Host and cannot be told not to).
 */
export function registerPublicHostRedirect(app: FastifyInstance, config: Config): void {
  if (!config.redirectToPublicUrl) return;
  const publicUrl = new URL(config.publicUrl);
  // A callback hook, not an async one: it runs on every request and almost never answers.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return done();
    // The route the router matched (it decodes `/%61pi`), else the path as sent.
    const path = request.routeOptions.url ?? request.url.split('?')[0] ?? '/';
    if (exempt(path) || exempt(request.url.split('?')[0] ?? '/')) return done();
    const host = request.host;
    // HTTP/1.0 without a Host: nothing to compare.
    if (!host || isPublicHost(host, publicUrl)) return done();
    // Answered: Fastify runs no further hook or handler, so `done` is not called.
    reply.redirect(`${config.publicUrl}${request.url}`, 308);
  });
}
