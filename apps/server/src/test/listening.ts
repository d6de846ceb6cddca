import { createServer } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../app.ts';
import { createContext } from '../context.ts';
import type { DatabaseKind } from '../db/index.ts';
import { serverVersion } from '../version.ts';
import { openTestDatabase } from './db.ts';
import { type TestServer, testConfig } from './server.ts';

/** A test server that listens on 127.0.0.1, for tests that speak real HTTP to it (OIDC flows). */
export interface ListeningTestServer extends TestServer {
  /** Its address, e.g. `http://127.0.0.1:43123`; also its PUBLIC_URL. */
  url: string;
  /** fetch() against it with the web client's x-api-key; `path` starts with `/`. */
  api(path: string, init?: RequestInit): Promise<Response>;
}

/** A free TCP port on loopback. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/**
 * Like useTestServer, but listening on a free loopback port with PUBLIC_URL set to that address
 * before the app is built, so the development directory's issuer and redirect URIs match it.
 */
export function useListeningTestServer(
  kind: DatabaseKind,
  env: Record<string, string> = {},
): ListeningTestServer {
  const server = {} as ListeningTestServer;
  let cleanup: () => Promise<void> = async () => {};
  beforeAll(async () => {
    const testDb = await openTestDatabase(kind);
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const config = testConfig({ PUBLIC_URL: url, ...env });
    const ctx = createContext(config, testDb.db, serverVersion);
    const app = await buildApp(ctx, { logger: false });
    await app.listen({ port, host: '127.0.0.1' });
    Object.assign(server, {
      app,
      ctx,
      url,
      request: (options: Parameters<TestServer['request']>[0]) =>
        app.inject({ ...options, headers: { 'x-api-key': config.apiKey, ...options.headers } }),
      api: (path: string, init: RequestInit = {}) =>
        fetch(`${url}${path}`, {
          ...init,
          headers: { 'x-api-key': config.apiKey, 'content-type': 'application/json', ...init.headers },
        }),
    });
    cleanup = async () => {
      await app.close();
      await testDb.cleanup().catch(() => {});
    };
  });
  afterAll(() => cleanup());
  return server;
}

/** A browser stand-in: fetch that keeps cookies and does not follow redirects on its own. */
export class CookieBrowser {
  readonly #cookies = new Map<string, string>();

  /** Fetches one URL, sending and keeping cookies; answers the raw response (redirects unfollowed). */
  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const cookie = [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(cookie ? { cookie } : {}), ...init.headers },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair?.indexOf('=') ?? -1;
      if (!pair || at < 1) continue;
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
    return res;
  }

  /** Follows redirects until one leads to `stopAt` (answered as a URL) or a page that is not a redirect. */
  async follow(url: string, stopAt: string): Promise<{ url: URL; response: Response | null }> {
    let next = new URL(url);
    for (let hops = 0; hops < 10; hops += 1) {
      if (next.href.startsWith(stopAt)) return { url: next, response: null };
      const res = await this.fetch(next.href);
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) return { url: next, response: res };
      await res.body?.cancel();
      next = new URL(location, next);
    }
    throw new Error(`too many redirects from ${url}`);
  }
}

/**
 * fetch() against the test server's API from `browser` (its cookies, kept and sent) with the web
 * client's x-api-key, as the web app calls it.
 */
export function browserApi(
  server: ListeningTestServer,
  browser: CookieBrowser,
  path: string,
  init: RequestInit = {},
): Promise<Response> {
  return browser.fetch(`${server.url}${path}`, {
    ...init,
    headers: {
      'x-api-key': server.ctx.config.apiKey,
      'content-type': 'application/json',
      ...init.headers,
    },
  });
}

/** The query parameters the directory put on /aad/callback after a person signed in. */
export interface Callback {
  code: string;
  state: string;
  iss?: string;
}

/**
 * Signs a person in at the development directory the way a browser does: asks BTalk for the
 * authorization URL (which gives `browser` its sign-in cookie), opens it, posts the sign-in form,
 * and follows the redirects back to /aad/callback. Answers the callback's parameters (not yet
 * exchanged) and the browser, the only one whose `POST /api/auth/code` (see `postCode`) completes it.
 */
export async function directorySignIn(
  server: ListeningTestServer,
  email: string,
  password = 'btalk',
  browser = new CookieBrowser(),
  aadPath = '/api/auth/aad',
): Promise<{ callback: Callback; browser: CookieBrowser }> {
  const aad = await browserApi(server, browser, aadPath);
  if (aad.status !== 200) throw new Error(`GET /api/auth/aad answered ${aad.status}: ${await aad.text()}`);
  const { url } = ((await aad.json()) as { data: { url: string } }).data;
  const redirectUri = server.ctx.config.directory.redirectUri;
  const page = await browser.follow(url, redirectUri);
  if (!page.response) throw new Error('the directory went back to BTalk without asking who signs in');
  const html = await page.response.text();
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`no sign-in form at ${page.url.href}:\n${html.slice(0, 500)}`);
  const posted = await browser.fetch(new URL(action.replace(/&#47;/g, '/'), page.url).href, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password }).toString(),
  });
  const location = posted.headers.get('location');
  if (!location)
    throw new Error(`sign-in form answered ${posted.status}: ${(await posted.text()).slice(0, 300)}`);
  let back = await browser.follow(new URL(location, page.url).href, redirectUri);
  // Another person than the directory's session: it ends that session first with a form its page's
  // script submits at once, as a browser would.
  const ending = back.response ? await back.response.clone().text() : '';
  const endAction = /<form method="post" action="([^"]+\/session\/end\/confirm)"/.exec(ending)?.[1];
  if (endAction) {
    const fields = Object.fromEntries(
      [...ending.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/>/g)].map((m) => [
        m[1],
        m[2],
      ]),
    );
    const ended = await browser.fetch(endAction, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields as Record<string, string>).toString(),
    });
    const resume = ended.headers.get('location');
    if (!resume) throw new Error(`ending the directory session answered ${ended.status}`);
    back = await browser.follow(new URL(resume, endAction).href, redirectUri);
  }
  if (back.response)
    throw new Error(
      `did not come back to ${redirectUri}: ${back.url.href} ${back.response.status} ${(await back.response.text()).replace(/\s+/g, ' ').slice(0, 1500)}`,
    );
  return { callback: callbackParams(back.url), browser };
}

/** The code, state and issuer on an /aad/callback address. */
export function callbackParams(url: URL): Callback {
  const params = url.searchParams;
  const code = params.get('code');
  const state = params.get('state');
  if (!code || !state) throw new Error(`the callback has no code: ${url.href}`);
  return { code, state, ...(params.get('iss') ? { iss: params.get('iss') as string } : {}) };
}

/** `POST /api/auth/code` with `body` from `browser`, as the web app's /aad/callback page does. */
export function postCode(
  server: ListeningTestServer,
  browser: CookieBrowser,
  body: unknown,
): Promise<Response> {
  return browserApi(server, browser, '/api/auth/code', { method: 'POST', body: JSON.stringify(body) });
}
