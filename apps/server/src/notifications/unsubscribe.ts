import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/**
 * The signed tokens of e-mail unsubscribe links: `<userId>.<base64url HMAC-SHA256>`. They let a
 * person stop notification e-mails from a link, without signing in, and name nobody else. They do
 * not expire: a link in an old e-mail must still work (RFC 8058 expects that of one-click links).
 */

/** The MAC of a token: SHA-256 is 32 bytes, 43 characters of unpadded base64url. */
const MAC = /^[A-Za-z0-9_-]{43}$/;

/** The key that signs unsubscribe links, derived from the server secret so no one has to set another. */
function unsubscribeKey(secret: Uint8Array): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'btalk-unsubscribe', 'email', 32));
}

function macOf(secret: Uint8Array, userId: string): Buffer {
  return createHmac('sha256', unsubscribeKey(secret)).update(userId, 'utf8').digest();
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
  const mac = token.slice(dot + 1);
  // Buffer.from(…, 'base64url') skips characters it does not know: only the exact form may match.
  if (!MAC.test(mac)) return null;
  const sent = Buffer.from(mac, 'base64url');
  const expected = macOf(secret, userId);
  return sent.length === expected.length && timingSafeEqual(sent, expected) ? userId : null;
}
