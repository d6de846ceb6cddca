import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/index.ts';
import { LOGIN_PAGE_CSP } from '../directory/loginPage.ts';
import { CookieBrowser, useListeningTestServer } from '../test/listening.ts';
import { useTestServer } from '../test/server.ts';
import { contentSecurityPolicy } from './securityHeaders.ts';

/** A stand-in for the web build: index.html only, like the real one without inline scripts. */
const webDist = mkdtempSync(path.join(tmpdir(), 'btalk-web-'));
writeFileSync(
  path.join(webDist, 'index.html'),
  '<!doctype html><title>BTalk</title><script type="module" src="/assets/index.js"></script>',
);
afterAll(() => rmSync(webDist, { recursive: true, force: true }));

/** The Content-Security-Policy of a response, as directive name -> sources. */
function csp(res: LightMyRequestResponse): Map<string, string[]> {
  const header = res.headers['content-security-policy'];
  if (typeof header !== 'string') throw new Error(`no single Content-Security-Policy: ${String(header)}`);
  return new Map(
    header
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...sources]) => [name as string, sources]),
  );
}

/** Microsoft Teams' and Microsoft 365's hosts, as Microsoft lists them for a tab's frame-ancestors. */
const MICROSOFT_HOST =
  /^https:\/\/(\*\.)?(teams\.microsoft\.com|cloud\.microsoft|office\.com|microsoft365\.com|outlook\.office\.com|outlook\.office365\.com)$/;

describe('security headers over http (development)', () => {
  const server = useTestServer('sqlite', { WEB_DIST: webDist, PUBLIC_URL: 'http://127.0.0.1:8080' });

  function expectPageHeaders(res: LightMyRequestResponse) {
    const policy = csp(res);
    expect(policy.get('default-src')).toEqual(["'self'"]);
    // No inline or foreign scripts, no eval.
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(policy.get('script-src-attr')).toEqual(["'none'"]);
    expect(policy.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(policy.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
    expect(policy.get('font-src')).toEqual(["'self'", 'data:']);
    // The API, the realtime socket, and the development directory's Graph (same origin here).
    expect(policy.get('connect-src')).toEqual(["'self'", 'http://127.0.0.1:8080', 'ws://127.0.0.1:8080']);
    expect(policy.get('worker-src')).toEqual(["'self'"]);
    expect(policy.get('manifest-src')).toEqual(["'self'"]);
    expect(policy.get('form-action')).toEqual(["'self'"]);
    expect(policy.get('base-uri')).toEqual(["'self'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.has('upgrade-insecure-requests')).toBe(false);
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    // Teams shows BTalk in a frame: frame-ancestors decides, X-Frame-Options would refuse Teams.
    expect(res.headers['x-frame-options']).toBeUndefined();
    expect(res.headers['cross-origin-embedder-policy']).toBeUndefined();
    // Plain http: no HSTS.
    expect(res.headers['strict-transport-security']).toBeUndefined();
  }

  it('are on the web app, a client route and the API, and the API still answers JSON', async () => {
    const index = await server.request({ method: 'GET', url: '/' });
    expect(index.statusCode).toBe(200);
    expect(index.body).toContain('<title>BTalk</title>');
    expectPageHeaders(index);
    expect(index.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');

    const route = await server.request({ method: 'GET', url: '/topics/x' });
    expect(route.statusCode).toBe(200);
    expect(route.body).toContain('<title>BTalk</title>');
    expectPageHeaders(route);

    const health = await server.request({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toMatchObject({ code: 0, data: { status: 'ok' } });
    expectPageHeaders(health);
  });

  it('let only Microsoft Teams and Microsoft 365 frame the app', async () => {
    const res = await server.request({ method: 'GET', url: '/teamtab' });
    const [self, ...hosts] = csp(res).get('frame-ancestors') ?? [];
    expect(self).toBe("'self'");
    expect(hosts.length).toBeGreaterThan(0);
    for (const host of hosts) expect(host).toMatch(MICROSOFT_HOST);
    expect(hosts).toEqual(
      expect.arrayContaining(['https://teams.microsoft.com', 'https://*.cloud.microsoft']),
    );
  });

  it('leave the Teams tab and its consent popup without an opener policy, for teams-js', async () => {
    for (const url of ['/teamtab', '/teamtab/consent']) {
      const res = await server.request({ method: 'GET', url });
      expect(res.headers['cross-origin-opener-policy']).toBeUndefined();
    }
  });

  it('leave the sign-in callback without an opener policy, so that the sign-in popup keeps its opener', async () => {
    const res = await server.request({ method: 'GET', url: '/aad/callback?code=x&state=y' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cross-origin-opener-policy']).toBeUndefined();
    expect(csp(res).get('script-src')).toEqual(["'self'"]);
  });
});

describe('security headers over https', () => {
  const server = useTestServer('sqlite', { WEB_DIST: webDist, PUBLIC_URL: 'https://btalk.example.org' });

  it('add HSTS, upgrade-insecure-requests and the wss: origin', async () => {
    for (const url of ['/', '/topics/x', '/api/health']) {
      const res = await server.request({ method: 'GET', url });
      expect(res.headers['strict-transport-security'], url).toBe('max-age=31536000');
      const policy = csp(res);
      expect(policy.get('connect-src')).toEqual([
        "'self'",
        'https://btalk.example.org',
        'wss://btalk.example.org',
      ]);
      expect(policy.get('upgrade-insecure-requests')).toEqual([]);
    }
  });
});

describe('the Content-Security-Policy', () => {
  it("lets the web app call Entra ID's Graph", () => {
    const config = loadConfig({
      PUBLIC_URL: 'https://btalk.example.org',
      ENTRA_TENANT_ID: '72f988bf-86f1-41af-91ab-2d7cd011db47',
      DIRECTORY_CLIENT_ID: 'client',
      DIRECTORY_CLIENT_SECRET: 'secret',
    });
    expect(contentSecurityPolicy(config)['connect-src']).toEqual([
      "'self'",
      'https://btalk.example.org',
      'wss://btalk.example.org',
      'https://graph.microsoft.com',
    ]);
  });
});

describe("the development directory's sign-in page", () => {
  const server = useListeningTestServer('sqlite', { WEB_DIST: webDist });

  it('has its own policy (inline style, no script), sent once over real HTTP', async () => {
    const aad = await server.api('/api/auth/aad');
    const { url } = ((await aad.json()) as { data: { url: string } }).data;
    const page = await new CookieBrowser().follow(url, server.ctx.config.directory.redirectUri);
    expect(page.response?.status).toBe(200);
    expect(await page.response?.text()).toContain('<form method="post"');
    // One header (two would both apply): the page's own replaces the web app's.
    expect(page.response?.headers.get('content-security-policy')).toBe(LOGIN_PAGE_CSP);
    expect(page.response?.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.response?.headers.get('cross-origin-opener-policy')).toBeNull();
  });
});

describe('the end-to-end tests’ local Teams host', () => {
  it('may frame the tab only when TEAMS_TAB_TEST_HOSTS names it, and never in production', () => {
    const base = { BTALK_ENV: 'test', DATA_DIR: ':memory:' };
    expect(contentSecurityPolicy(loadConfig(base))['frame-ancestors']).not.toContain('http://127.0.0.1:4999');
    const withHost = loadConfig({ ...base, TEAMS_TAB_TEST_HOSTS: 'http://127.0.0.1:4999' });
    expect(contentSecurityPolicy(withHost)['frame-ancestors']).toContain('http://127.0.0.1:4999');
    expect(withHost.teamsTabTestHosts).toEqual(['http://127.0.0.1:4999']);
    expect(() =>
      loadConfig({
        BTALK_ENV: 'production',
        PUBLIC_URL: 'https://btalk.example.org',
        TEAMS_TAB_TEST_HOSTS: 'http://127.0.0.1:4999',
      }),
    ).toThrow(/TEAMS_TAB_TEST_HOSTS: must not be set in production/);
  });
});
