import { randomToken } from './seal.ts';

/**
 * The sign-in cookie that binds a sign-in attempt to the browser that started it (login CSRF, RFC
 * 9700 section 4.7.1): `GET /api/auth/aad` gives the browser a random value and keeps its hash with
 * the attempt; `POST /api/auth/code` completes the attempt only for a browser that sends the same
 * value. A callback link made in another browser then signs nobody in. One value per browser, reused
 * by every attempt, so that two tabs may sign in at once.
 *
 * Over https it is `__Host-btalk-signin` (ASVS 5.0 3.3.3: the prefix makes the browser refuse it
 * unless it is Secure, Path=/ and without Domain, so a sibling host cannot plant a value it knows);
 * over plain http (development, tests) the prefix is not allowed, and it is `btalk-signin`.
 * HttpOnly: scripts never need it. SameSite=Lax: the web app's own requests carry it, whether the
 * directory came back in this page or in the popup.
 */
export interface SignInCookie {
  /** `__Host-btalk-signin` over https, `btalk-signin` over http. */
  name: string;
  /** Whether the cookie is Secure (PUBLIC_URL is https). */
  secure: boolean;
}

/** The sign-in cookie of a server whose address is `publicUrl`. */
export function signInCookie(publicUrl: string): SignInCookie {
  const secure = publicUrl.startsWith('https://');
  return { name: secure ? '__Host-btalk-signin' : 'btalk-signin', secure };
}

// What newSignInBrowserValue makes: 32 random bytes in base64url.
const VALUE = /^[A-Za-z0-9_-]{43}$/;

/** A new browser value for the sign-in cookie (32 random bytes). */
export function newSignInBrowserValue(): string {
  return randomToken();
}

/**
 * The sign-in cookie's value in a request's `Cookie` header, or null when there is none or it is
 * not a value BTalk makes. With the name twice (a cookie with another path), the first one counts.
 */
export function readSignInCookie(cookieHeader: string | undefined, cookie: SignInCookie): string | null {
  if (!cookieHeader) return null;
  for (const pair of cookieHeader.split(';')) {
    const at = pair.indexOf('=');
    if (at < 0 || pair.slice(0, at).trim() !== cookie.name) continue;
    const value = pair.slice(at + 1).trim();
    return VALUE.test(value) ? value : null;
  }
  return null;
}

/** The `Set-Cookie` header that gives the browser `value` for `maxAgeSeconds`. */
export function signInSetCookie(value: string, cookie: SignInCookie, maxAgeSeconds: number): string {
  return [
    `${cookie.name}=${value}`,
    'Path=/',
    `Max-Age=${Math.ceil(maxAgeSeconds)}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(cookie.secure ? ['Secure'] : []),
  ].join('; ');
}
