import { ErrorCode } from '@btalk/contracts';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../test/db.ts';
import { useTestServer } from '../test/server.ts';
import { type SignedIn, signedIn } from '../test/session.ts';

describeEachDatabase('the x-api-key check', (kind) => {
  const server = useTestServer(kind);
  let me: SignedIn;
  const withoutKey = (url: string) => server.app.inject({ method: 'GET', url, headers: me.headers });

  beforeAll(async () => {
    me = await signedIn(server);
  });

  // The router decodes the path before matching: these reach GET /api/topics.
  it.each(['/%61pi/topics', '/api/%74opics', '/%61%70%69/%74%6F%70%69%63%73'])(
    'refuses %s without the key, as the route it reaches',
    async (url) => {
      const res = await withoutKey(url);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe(ErrorCode.badApiKey);
      const keyed = await server.request({ method: 'GET', url, headers: me.headers });
      expect(keyed.statusCode).toBe(200);
    },
  );

  // The router is case-sensitive and keeps the empty segment: these are no API route at all.
  it.each(['//api/topics', '/API/topics', '/Api/topics'])('answers no API data at %s', async (url) => {
    const res = await withoutKey(url);
    expect(res.headers['content-type']).not.toMatch(/json/);
    expect(res.body).not.toContain('"items"');
  });

  it('answers an unknown encoded API path with the envelope: 401 without the key, 404 with it', async () => {
    const bare = await withoutKey('/%61pi/no/such/route');
    expect(bare.statusCode).toBe(401);
    expect(bare.json().code).toBe(ErrorCode.badApiKey);
    const keyed = await server.request({ method: 'GET', url: '/%61pi/no/such/route', headers: me.headers });
    expect(keyed.statusCode).toBe(404);
    expect(keyed.json().code).toBe(ErrorCode.notFound);
  });

  it('keeps the exemptions to their own routes, however they are spelled', async () => {
    expect((await withoutKey('/%61pi/health')).statusCode).toBe(200);
    expect((await withoutKey('/api/health?probe=1')).statusCode).toBe(200);
    // A query string that names an exempt route exempts nothing.
    expect((await withoutKey('/api/topics?/api/health')).statusCode).toBe(401);
    expect((await withoutKey('/api/healthz')).statusCode).toBe(401);
  });
});
