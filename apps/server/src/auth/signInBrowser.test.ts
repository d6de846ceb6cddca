import { describe, expect, it } from 'vitest';
import { newSignInBrowserValue, readSignInCookie, signInCookie, signInSetCookie } from './signInBrowser.ts';

describe('the sign-in cookie', () => {
  const https = signInCookie('https://btalk.example.org');
  const http = signInCookie('http://127.0.0.1:8080');

  it('is __Host- prefixed, Secure, Path=/ and without Domain over https (ASVS 5.0 3.3.3)', () => {
    const value = newSignInBrowserValue();
    expect(signInSetCookie(value, https, 600)).toBe(
      `__Host-btalk-signin=${value}; Path=/; Max-Age=600; HttpOnly; SameSite=Lax; Secure`,
    );
  });

  it('has no prefix and is not Secure over plain http, where browsers would refuse both', () => {
    const value = newSignInBrowserValue();
    expect(signInSetCookie(value, http, 600)).toBe(
      `btalk-signin=${value}; Path=/; Max-Age=600; HttpOnly; SameSite=Lax`,
    );
  });

  it('is read among other cookies, and only when it is a value BTalk makes', () => {
    const value = newSignInBrowserValue();
    expect(value).toMatch(/^[\w-]{43}$/);
    expect(newSignInBrowserValue()).not.toBe(value);
    expect(readSignInCookie(`a=1; __Host-btalk-signin=${value}; b=2`, https)).toBe(value);
    expect(readSignInCookie(`btalk-signin=${value}`, http)).toBe(value);
    // The plain name does not count over https: a sibling host could have planted it.
    expect(readSignInCookie(`btalk-signin=${value}`, https)).toBeNull();
    expect(readSignInCookie(`x-btalk-signin=${value}`, http)).toBeNull();
    expect(readSignInCookie('btalk-signin=short', http)).toBeNull();
    expect(readSignInCookie(`btalk-signin=${value}%00`, http)).toBeNull();
    expect(readSignInCookie('', http)).toBeNull();
    expect(readSignInCookie(undefined, http)).toBeNull();
  });
});
