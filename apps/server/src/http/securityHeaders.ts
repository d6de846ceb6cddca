import fastifyHelmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from '../config/index.ts';
import { signedDownloadOrigin } from '../files/s3Storage.ts';

/**
 * The hosts that may show BTalk in a frame: Microsoft Teams and the Microsoft 365 apps that host
 * Teams tabs, as Microsoft lists them for a tab's `frame-ancestors` ("Tab requirements" in the
 * Teams platform documentation). Nobody else may frame it (clickjacking).
 */
export const TAB_HOSTS = [
  'https://teams.microsoft.com',
  'https://*.teams.microsoft.com',
  'https://*.cloud.microsoft',
  'https://*.office.com',
  'https://*.microsoft365.com',
  'https://outlook.office.com',
  'https://outlook.office365.com',
];

/**
 * Paths whose pages take part in a sign-in popup, which hands the session back through
 * `window.opener`: they send no Cross-Origin-Opener-Policy. `/teamtab/consent` is the Teams consent
 * popup: Teams opens it and teams-js answers Teams through `window.opener`. The popup comes back to /aad/callback
 * from the directory's pages; if the two policies differ, the browser moves the popup to a new
 * browsing context group and `window.opener` becomes null.
 */
const SIGN_IN_PATHS = ['/aad/callback', '/directory', '/teamtab'];

/** The Content-Security-Policy directives of BTalk's pages (the web app and the API alike). */
export function contentSecurityPolicy(config: Config): Record<string, string[]> {
  const site = new URL(config.publicUrl);
  const socket = `${site.protocol === 'https:' ? 'wss:' : 'ws:'}//${site.host}`;
  // The web app's Graph client (photos, profile) calls the directory's Graph from the browser.
  const graph = config.directory.graphBase ? [new URL(config.directory.graphBase).origin] : [];
  // S3_SIGNED_DOWNLOADS: the API redirects file downloads to the object store, which fetch follows.
  const store = config.s3?.signedDownloads ? [signedDownloadOrigin(config.s3)] : [];
  return {
    'default-src': ["'self'"],
    // Scripts from this origin only: index.html has no inline script (the service worker is
    // registered by an external registerSW.js), so neither 'unsafe-inline' nor 'unsafe-eval'.
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    // MUI (emotion) inserts <style> elements at run time and sets style attributes: without
    // 'unsafe-inline' for styles the app renders unstyled. Styles cannot run code.
    'style-src': ["'self'", "'unsafe-inline'"],
    // Photos from Graph are shown as data: URLs, downloaded attachments as blob: URLs.
    'img-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'", 'data:'],
    // The API (PUBLIC_URL's origin, also when the page was opened under another name), the
    // realtime WebSocket, the directory's Graph, and the object store of signed downloads.
    // Not teams-js' fetch of Microsoft's current list of Teams hosts: refused, it uses its bundled copy.
    'connect-src': [...new Set(["'self'", site.origin, socket, ...graph, ...store])],
    'media-src': ["'self'", 'blob:'],
    'worker-src': ["'self'"],
    'manifest-src': ["'self'"],
    // TEAMS_TAB_TEST_HOSTS: the end-to-end tests' local Teams host; never set in production.
    'frame-ancestors': ["'self'", ...TAB_HOSTS, ...config.teamsTabTestHosts],
    // Forms post to this origin only (the development directory's sign-in form is at /directory).
    'form-action': ["'self'"],
    'base-uri': ["'self'"],
    'object-src': ["'none'"],
    ...(site.protocol === 'https:' ? { 'upgrade-insecure-requests': [] } : {}),
  };
}

/** The @fastify/helmet options of BTalk's responses (see `registerSecurityHeaders`). */
function helmetOptions(config: Config): FastifyHelmetOptions {
  const https = new URL(config.publicUrl).protocol === 'https:';
  return {
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(config) },
    // Over plain http (development) HSTS would be ignored at best, and would pin localhost at worst.
    // This host only: BTalk does not speak for the other names under its domain.
    strictTransportSecurity: https ? { maxAge: 365 * 24 * 60 * 60, includeSubDomains: false } : false,
    xFrameOptions: false,
    // require-corp would block what the app shows from elsewhere (photos) for no gain: BTalk
    // needs no cross-origin isolation.
    crossOriginEmbedderPolicy: false,
    // Set per path below.
    crossOriginOpenerPolicy: false,
    // Not no-referrer: with it, browsers send `Origin: null` on same-origin POSTs and form posts.
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  };
}

/**
 * The headers @fastify/helmet sets with `options`, read once from a throw-away Fastify instance.
 * They are the same on every response (no route has options of its own, no CSP nonces), while the
 * plugin runs helmet's whole set-up (parsing every CSP directive) again for every request: about
 * a sixth of `GET /api/health`'s CPU (docs/benchmarks.md, issue 14 point 4).
 */
export async function helmetHeaders(options: FastifyHelmetOptions): Promise<[string, string][]> {
  const probe = Fastify({ logger: false });
  await probe.register(fastifyHelmet, options);
  let headers: [string, string][] = [];
  probe.get('/', async (_request, reply) => {
    // Only helmet has set headers on the raw response at this point; Fastify adds its own at send.
    headers = Object.entries(reply.raw.getHeaders()).map(([name, value]) => [name, String(value)]);
    return '';
  });
  await probe.inject({ method: 'GET', url: '/' });
  await probe.close();
  if (!headers.some(([name]) => name === 'content-security-policy')) {
    throw new Error('helmetHeaders: @fastify/helmet set no Content-Security-Policy; its options are wrong');
  }
  return headers;
}

/**
 * Security headers on every response, as @fastify/helmet sets them (on the raw response in an
 * onRequest hook, so hijacked replies get them too), computed once: the Content-Security-Policy
 * above, Referrer-Policy, nosniff, HSTS when PUBLIC_URL is https, and Cross-Origin-Opener-Policy
 * outside the sign-in pages. No X-Frame-Options: it cannot name Teams, and `frame-ancestors` does
 * its job.
 */
export async function registerSecurityHeaders(app: FastifyInstance, config: Config): Promise<void> {
  const headers = await helmetHeaders(helmetOptions(config));
  app.addHook('onRequest', (_request, reply, done) => {
    const raw = reply.raw;
    for (const [name, value] of headers) raw.setHeader(name, value);
    done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    const pathname = request.url.split('?')[0] ?? '';
    if (!SIGN_IN_PATHS.some((p) => pathname === p || pathname.startsWith(`${p}/`))) {
      // Keeps pages of other origins that open BTalk from holding a handle on its window, while
      // BTalk's own sign-in popup keeps its opener.
      reply.header('cross-origin-opener-policy', 'same-origin-allow-popups');
    }
    done(null, payload);
  });
}
