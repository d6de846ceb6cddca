import { describe, expect, it } from 'vitest';
import { callbackAddress, openerWaitingForSignIn, readCallback } from './signIn.ts';

describe('the sign-in callback', () => {
  it('reads the code, the state and the issuer the directory sent', () => {
    expect(readCallback('?code=abc&state=s1&iss=https%3A%2F%2Fid.example.org')).toEqual({
      kind: 'code',
      request: { code: 'abc', state: 's1', iss: 'https://id.example.org' },
    });
    expect(readCallback('?code=abc&state=s1')).toEqual({
      kind: 'code',
      request: { code: 'abc', state: 's1' },
    });
  });

  it('reports the directory refusing, and a visit with no sign-in in progress', () => {
    expect(readCallback('?error=access_denied&error_description=The+user+cancelled')).toEqual({
      kind: 'error',
      error: 'access_denied',
      description: 'The user cancelled',
    });
    expect(readCallback('?code=abc')).toEqual({ kind: 'missing' });
    expect(readCallback('')).toEqual({ kind: 'missing' });
  });

  it('is this origin’s /aad/callback, and a page without an opener is not the popup', () => {
    expect(callbackAddress()).toBe(`${window.location.origin}/aad/callback`);
    expect(openerWaitingForSignIn()).toBeNull();
  });
});
