import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/**
 * The signed tokens of e-mail unsubscribe links: `<userId>.<base64url HMAC-SHA256>`. They let a
 * person stop notification e-mails from a link, without signing in, and name nobody else. They do
 * not expire: a link in an old e-mail must still work (RFC 8058 expects that of one-click links).
 */

/** The MAC of a token: SHA-256 is 32 bytes, 43 characters of unpadded base64url. */
const MAC = /^[A-Za-z0-9_-]{43}$/;

/** What a signing key is for: the HKDF salt and info that derive it from the server secret. */
export type SigningPurpose = readonly [salt: string, info: string];

/** Unsubscribe links' purpose. */
const UNSUBSCRIBE: SigningPurpose = ['btalk-unsubscribe', 'email'];

/**
 * The HMAC-SHA256 of `data` with a key of its own purpose, derived from the server secret so no one
 * has to set another (also the push notifications' acknowledge links, notifications/acknowledgeLinks.ts).
 */
export function macWith(secret: Uint8Array, purpose: SigningPurpose, data: string | Uint8Array): Buffer {
  const key = Buffer.from(hkdfSync('sha256', secret, purpose[0], purpose[1], 32));
  return createHmac('sha256', key)
    .update(typeof data === 'string' ? Buffer.from(data, 'utf8') : data)
    .digest();
}

/** Whether a token's MAC (43 base64url characters, nothing else) is `expected`, in constant time. */
export function macMatches(mac: string, expected: Buffer): boolean {
  // Buffer.from(…, 'base64url') skips characters it does not know: only the exact form may match.
  if (!MAC.test(mac)) return false;
  const sent = Buffer.from(mac, 'base64url');
  return sent.length === expected.length && timingSafeEqual(sent, expected);
}

function macOf(secret: Uint8Array, userId: string): Buffer {
  return macWith(secret, UNSUBSCRIBE, userId);
}

/** The token of a person's unsubscribe link. */
export function unsubscribeToken(secret: Uint8Array, userId: string): string {
  return `${userId}.${macOf(secret, userId).toString('base64url')}`;
}

/** The person an unsubscribe token was made for, or null when it was not made by this server. */
export function verifyUnsubscribeToken(secret: Uint8Array, token: string): string | null {
  const dot = token.lastIndexOf('.');
  if (dot <= 0) return null;
  const userId = token.slice(0, dot);
  return macMatches(token.slice(dot + 1), macOf(secret, userId)) ? userId : null;
}
