import { macMatches, macWith, type SigningPurpose } from './unsubscribe.ts';

/**
 * The links of a push notification's **Acknowledge** action (issue 17): `POST
 * /api/announcements/acknowledge/<token>` acknowledges one important post for one person, without a
 * session (a service worker has none). The token is `<claims>.<MAC>`: the person's and the post's ids
 * and when it ends (16 + 16 + 4 bytes, base64url), signed with HMAC-SHA256 under a key of its own
 * derived from the server secret (the signing of the e-mails' unsubscribe links, unsubscribe.ts). It
 * names one person and one post, ends after ACKNOWLEDGE_LINK_DAYS, and cannot be made or altered
 * without the secret. 92 characters: a path parameter of the router (at most 100) holds it.
 */

/** How long a push notification's Acknowledge action works; after that, the notification opens the post. */
export const ACKNOWLEDGE_LINK_DAYS = 14;

/** The path of the action's POST, as the router matches it (app.ts exempts it from the x-api-key check). */
export const ACKNOWLEDGE_LINK_ROUTE = '/api/announcements/acknowledge/:token';

const PURPOSE: SigningPurpose = ['btalk-acknowledge', 'push'];

/** The claims: two UUIDs and a time in seconds, 36 bytes, 48 characters of base64url. */
const CLAIMS = /^[A-Za-z0-9_-]{48}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const uuidBytes = (id: string) => Buffer.from(id.replace(/-/g, ''), 'hex');
const uuidOf = (bytes: Buffer) => {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

/**
 * A token that lets `userId` acknowledge `postId` until ACKNOWLEDGE_LINK_DAYS after `at`; null when an
 * id is not a UUID (ids are UUIDv7, ids.ts): then the notification comes without the action.
 */
export function acknowledgeToken(
  secret: Uint8Array,
  userId: string,
  postId: string,
  at = new Date(),
): string | null {
  if (!UUID.test(userId) || !UUID.test(postId)) return null;
  const claims = Buffer.alloc(36);
  uuidBytes(userId.toLowerCase()).copy(claims, 0);
  uuidBytes(postId.toLowerCase()).copy(claims, 16);
  claims.writeUInt32BE(Math.floor(at.getTime() / 1000) + ACKNOWLEDGE_LINK_DAYS * 24 * 60 * 60, 32);
  return `${claims.toString('base64url')}.${macWith(secret, PURPOSE, claims).toString('base64url')}`;
}

/** The absolute URL of the Acknowledge action, or null when there is no token (see acknowledgeToken). */
export function acknowledgeUrl(
  publicUrl: string,
  secret: Uint8Array,
  userId: string,
  postId: string,
  at = new Date(),
): string | null {
  const token = acknowledgeToken(secret, userId, postId, at);
  return token && `${publicUrl.replace(/\/+$/, '')}/api/announcements/acknowledge/${token}`;
}

/** What a token says: whose and which post, or why it cannot be used. */
export type AcknowledgeTokenReading =
  | { ok: true; userId: string; postId: string; expiresAt: Date }
  | { ok: false; reason: 'invalid' | 'expired' };

/** Reads a token: the person and the post it was made for, unless it is not this server's or has ended. */
export function readAcknowledgeToken(
  secret: Uint8Array,
  token: string,
  at = new Date(),
): AcknowledgeTokenReading {
  const dot = token.indexOf('.');
  const text = token.slice(0, dot);
  // Buffer.from(…, 'base64url') skips characters it does not know: only the exact form is read.
  if (dot < 0 || !CLAIMS.test(text)) return { ok: false, reason: 'invalid' };
  const claims = Buffer.from(text, 'base64url');
  if (!macMatches(token.slice(dot + 1), macWith(secret, PURPOSE, claims))) {
    return { ok: false, reason: 'invalid' };
  }
  const expiresAt = new Date(claims.readUInt32BE(32) * 1000);
  if (expiresAt.getTime() <= at.getTime()) return { ok: false, reason: 'expired' };
  return {
    ok: true,
    userId: uuidOf(claims.subarray(0, 16)),
    postId: uuidOf(claims.subarray(16, 32)),
    expiresAt,
  };
}
