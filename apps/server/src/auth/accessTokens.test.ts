import { afterEach, describe, expect, it, vi } from 'vitest';
import { AccessTokenError, AccessTokens } from './accessTokens.ts';

const secret = new TextEncoder().encode('a test secret of thirty-two bytes!!');

describe('AccessTokens', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('refuses a token it verified before once it has expired', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-23T10:00:00Z'));
    const tokens = new AccessTokens(secret, 'https://btalk.test', 60);
    const token = await tokens.sign('person-1', 'session-1');
    expect(await tokens.verify(token)).toMatchObject({ sub: 'person-1', sid: 'session-1' });
    vi.setSystemTime(new Date('2026-11-23T10:00:59Z'));
    expect((await tokens.verify(token)).sid).toBe('session-1');
    vi.setSystemTime(new Date('2026-11-23T10:01:00Z'));
    await expect(tokens.verify(token)).rejects.toThrow(/has expired/);
  });

  it('refuses tampered and foreign tokens, also next to a verified one', async () => {
    const tokens = new AccessTokens(secret, 'https://btalk.test', 60);
    const token = await tokens.sign('person-1', 'session-1');
    await tokens.verify(token);
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: 'admin' })).toString('base64url')}.${signature}`;
    await expect(tokens.verify(forged)).rejects.toThrow(AccessTokenError);
    const foreign = new AccessTokens(
      new TextEncoder().encode('another secret, also thirty-two b'),
      'https://btalk.test',
      60,
    );
    await expect(foreign.verify(token)).rejects.toThrow(/not valid/);
  });
});
