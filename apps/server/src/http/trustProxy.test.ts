import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type TestServer, useTestServer } from '../test/server.ts';

/** A production configuration, where BTalk used to believe any X-Forwarded-For. */
const PRODUCTION = {
  BTALK_ENV: 'production',
  API_KEY: randomBytes(24).toString('base64url'),
  JWT_SECRET: randomBytes(48).toString('base64url'),
  OIDC_ISSUER: 'https://id.example.org',
  DIRECTORY_CLIENT_ID: 'btalk',
  DIRECTORY_CLIENT_SECRET: 'secret',
  PUBLIC_URL: 'https://btalk.example.org',
  AUTH_RATE_LIMIT_PER_MINUTE: '2',
};

/**
 * Asks for the sign-in URL from one connection (inject's 127.0.0.1) claiming another forwarded
 * address each time. The redirect URI is wrong on purpose: the answer is a quick 400 after the rate
 * limit has counted the request, with no call to the directory.
 */
async function signInStatuses(server: TestServer, forwardedFor: string[]): Promise<number[]> {
  const statuses: number[] = [];
  for (const address of forwardedFor) {
    const res = await server.request({
      method: 'GET',
      url: '/api/auth/aad?redirectUri=https://elsewhere.example.org/',
      headers: { 'x-forwarded-for': address },
    });
    statuses.push(res.statusCode);
  }
  return statuses;
}

describe('without TRUST_PROXY', () => {
  const server = useTestServer('sqlite', PRODUCTION);

  it('counts the sign-in rate limit by the connection, whatever X-Forwarded-For says', async () => {
    expect(await signInStatuses(server, ['203.0.113.1', '203.0.113.2', '203.0.113.3'])).toEqual([
      400, 400, 429,
    ]);
  });
});

describe('with TRUST_PROXY=1', () => {
  const server = useTestServer('sqlite', { ...PRODUCTION, TRUST_PROXY: '1' });

  it('counts by the address the proxy forwarded', async () => {
    expect(await signInStatuses(server, ['203.0.113.1', '203.0.113.2', '203.0.113.3'])).toEqual([
      400, 400, 400,
    ]);
    // The proxy adds the client's address last: an address the client made up before it is ignored.
    expect(
      await signInStatuses(server, ['198.51.100.1, 203.0.113.9', '198.51.100.2, 203.0.113.9', '203.0.113.9']),
    ).toEqual([400, 400, 429]);
  });
});

describe('with TRUST_PROXY naming the proxy', () => {
  const server = useTestServer('sqlite', { ...PRODUCTION, TRUST_PROXY: 'loopback,10.0.0.0/8' });

  it('believes X-Forwarded-For from that address only', async () => {
    expect(await signInStatuses(server, ['203.0.113.1', '203.0.113.2', '203.0.113.3'])).toEqual([
      400, 400, 400,
    ]);
    const fromElsewhere = (address: string) =>
      server.app.inject({
        method: 'GET',
        url: '/api/auth/aad?redirectUri=https://elsewhere.example.org/',
        remoteAddress: '192.0.2.7',
        headers: { 'x-api-key': server.ctx.config.apiKey, 'x-forwarded-for': address },
      });
    const statuses = [];
    for (const address of ['203.0.113.4', '203.0.113.5', '203.0.113.6']) {
      statuses.push((await fromElsewhere(address)).statusCode);
    }
    expect(statuses).toEqual([400, 400, 429]);
  });
});
