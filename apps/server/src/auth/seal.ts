import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Seals small secrets for storage (AES-256-GCM): the directory's tokens that stay on the server, and
 * the answer a rotated refresh token may repeat during its grace window. A sealed value is
 * `v1.<iv>.<tag>.<ciphertext>` in base64url; the key is derived from a secret with HKDF.
 */
export class Sealer {
  readonly #key: Buffer;

  constructor(secret: Uint8Array | string, purpose: string) {
    this.#key = Buffer.from(hkdfSync('sha256', secret, 'btalk-seal', purpose, 32));
  }

  /** Encrypts and authenticates a text. */
  seal(text: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), body]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  /** The text of a sealed value; throws when it was sealed with another key or altered. */
  unseal(sealed: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed value');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }
}

/** A new opaque token: 32 random bytes in base64url. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The stored form of a token: base64url SHA-256 (tokens are random, so no salt is needed). */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
