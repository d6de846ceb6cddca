import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config/index.ts';
import { useTestServer } from '../test/server.ts';
import { isPublicHost } from './publicHost.ts';

// The redirect depends on no database: SQLite alone.
describe('page requests at another host than PUBLIC_URL', () => {
  // PUBLIC_URL is the default http://localhost:8080.
  const server = useTestServer('sqlite', { REDIRECT_TO_PUBLIC_URL: 'true' });
  const get = (
    url: string,
    host: string,
    headers: Record<string, string> = {},
    method: 'GET' | 'HEAD' = 'GET',
  ) => server.app.inject({ method, url, headers: { host, ...headers } });

  it('are sent to the same path and query at PUBLIC_URL with a 308 (GET and HEAD)', async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await get('/topics/abc?comment=1#x', '127.0.0.1:8080', {}, method);
      expect(res.statusCode, method).toBe(308);
      expect(res.headers.location).toBe('http://localhost:8080/topics/abc?comment=1');
    }
    // The development directory's pages: its issuer lives under PUBLIC_URL.
    const directory = await get('/directory/.well-known/openid-configuration', '127.0.0.1:8080');
    expect(directory.statusCode).toBe(308);
    expect(directory.headers.location).toBe(
      'http://localhost:8080/directory/.well-known/openid-configuration',
    );
    // Another port of the same name is another origin too.
    expect((await get('/', 'localhost:9999')).headers.location).toBe('http://localhost:8080/');
    // A path that looks like another host stays on PUBLIC_URL.
    expect((await get('//evil.example/x', '127.0.0.1:8080')).headers.location).toBe(
      'http://localhost:8080//evil.example/x',
    );
  });

  it('are served at PUBLIC_URL\'s host, whatever its case, and without a port (a proxy\'s "Host: $host")', async () => {
    for (const host of ['localhost:8080', 'LocalHost:8080', 'localhost']) {
      const res = await get('/topics/abc', host);
      expect(res.statusCode, host).not.toBe(308);
      expect(res.headers['content-type'], host).toMatch(/^text\/html/);
    }
  });

  it("leave the API, the metrics, the app's configuration and other methods alone", async () => {
    const health = await get('/api/health', '127.0.0.1:8080');
    expect(health.statusCode).toBe(200);
    const unknown = await server.request({ url: '/api/no-such-route', headers: { host: '127.0.0.1:8080' } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe(4040);
    // The Teams bot (POST /api/messages) and the realtime stream (/api/realtime) are under /api too.
    const realtime = await get('/api/realtime', '127.0.0.1:8080');
    expect(realtime.statusCode).not.toBe(308);
    // The web app's configuration: JSON, not a page, the same at any host.
    expect((await get('/__/firebase/init.json', '127.0.0.1:8080')).statusCode).toBe(200);
    const metrics = await get('/metrics', '127.0.0.1:8080');
    expect(metrics.statusCode).toBe(404);
    expect(metrics.json().code).toBe(4040);
    const post = await server.app.inject({
      method: 'POST',
      url: '/topics/abc',
      headers: { host: '127.0.0.1:8080' },
    });
    expect(post.statusCode).not.toBe(308);
    const encoded = await get('/%61pi/health', '127.0.0.1:8080');
    expect(encoded.statusCode).not.toBe(308);
  });

  it('ignore X-Forwarded-Host from a client no TRUST_PROXY names', async () => {
    const res = await get('/', '127.0.0.1:8080', { 'x-forwarded-host': 'localhost:8080' });
    expect(res.statusCode).toBe(308);
  });
});

describe('page requests through a proxy that TRUST_PROXY names', () => {
  // inject's requests come from 127.0.0.1: the trusted proxy here.
  const server = useTestServer('sqlite', {
    REDIRECT_TO_PUBLIC_URL: 'true',
    PUBLIC_URL: 'https://btalk.example.org',
    TRUST_PROXY: 'loopback',
  });

  it('are judged by X-Forwarded-Host, the host the browser asked for', async () => {
    const kept = await server.app.inject({
      url: '/topics/1',
      headers: {
        host: '10.0.0.5:8080',
        'x-forwarded-host': 'btalk.example.org',
        'x-forwarded-proto': 'https',
      },
    });
    expect(kept.statusCode).not.toBe(308);
    const moved = await server.app.inject({
      url: '/topics/1?x=2',
      headers: { host: 'btalk.example.org', 'x-forwarded-host': 'btalk-old.example.org' },
    });
    expect(moved.statusCode).toBe(308);
    expect(moved.headers.location).toBe('https://btalk.example.org/topics/1?x=2');
  });
});

describe('REDIRECT_TO_PUBLIC_URL=false', () => {
  const server = useTestServer('sqlite', { REDIRECT_TO_PUBLIC_URL: 'false' });

  it('serves pages at any host', async () => {
    const res = await server.app.inject({ url: '/topics/abc', headers: { host: '127.0.0.1:8080' } });
    expect(res.statusCode).not.toBe(308);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
  });
});

describe('isPublicHost', () => {
  it('compares names without case, ports when the Host names one, and IPv6 addresses in brackets', () => {
    const local = new URL('http://localhost:8080');
    expect(isPublicHost('localhost:8080', local)).toBe(true);
    expect(isPublicHost('localhost', local)).toBe(true);
    expect(isPublicHost('127.0.0.1:8080', local)).toBe(false);
    expect(isPublicHost('localhost:80', local)).toBe(false);
    expect(isPublicHost('localhost.evil.example:8080', local)).toBe(false);
    const secure = new URL('https://BTalk.Example.org');
    expect(isPublicHost('btalk.example.org:443', secure)).toBe(true);
    expect(isPublicHost('btalk.example.org:8443', secure)).toBe(false);
    const v6 = new URL('http://[::1]:8080');
    expect(isPublicHost('[::1]:8080', v6)).toBe(true);
    expect(isPublicHost('[::1]', v6)).toBe(true);
    expect(isPublicHost('[::2]:8080', v6)).toBe(false);
  });
});

describe('configuration of the redirect and the metrics', () => {
  const attempt = (env: Record<string, string>) => () => loadConfig({ BTALK_ENV: 'test', ...env });

  it('names a bad REDIRECT_TO_PUBLIC_URL, METRICS_PORT or METRICS_TOKEN, never printing the token', () => {
    expect(attempt({ REDIRECT_TO_PUBLIC_URL: 'sometimes' })).toThrow(
      /REDIRECT_TO_PUBLIC_URL: must be true or false/,
    );
    expect(attempt({ METRICS_PORT: '70000' })).toThrow(/METRICS_PORT: must be between 1 and 65535/);
    expect(attempt({ PORT: '9000', METRICS_PORT: '9000' })).toThrow(/METRICS_PORT: must differ from PORT/);
    const short = 'short-secret';
    let message = '';
    try {
      attempt({ METRICS_TOKEN: short })();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    expect(message).toMatch(/METRICS_TOKEN: must be at least 16 characters/);
    expect(message).toContain('value hidden');
    expect(message).not.toContain(short);
  });

  it('defaults: the redirect on, no metrics token or port, the metrics host on loopback', () => {
    const config = loadConfig({ BTALK_ENV: 'test' });
    expect(config.redirectToPublicUrl).toBe(true);
    expect(config.metrics).toEqual({ token: null, port: null, host: '127.0.0.1' });
  });
});
