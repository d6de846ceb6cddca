import { errors, jwtVerify, SignJWT } from 'jose';

/** The claims BTalk puts in its access tokens. */
export interface AccessClaims {
  /** The person's BTalk id. */
  sub: string;
  /** The session (refresh-token family) the token belongs to. */
  sid: string;
  /** Issued at, in seconds since the epoch. */
  iat: number;
  /** Expires at, in seconds since the epoch. */
  exp: number;
}

/** Why a token was refused; the message tells the client what to do. */
export class AccessTokenError extends Error {
  override name = 'AccessTokenError';
}

const ALGORITHM = 'HS256';
const AUDIENCE = 'btalk-api';
/** How many verified tokens `verify` remembers (a few hundred bytes each). */
const VERIFIED_CACHE_SIZE = 10_000;

/** Signs and checks BTalk's short-lived access tokens (HS256 JWTs; no other algorithm is accepted). */
export class AccessTokens {
  readonly #secret: Uint8Array;
  readonly #issuer: string;
  readonly ttlSeconds: number;
  /**
   * Tokens whose signature and claims were checked, with their claims, oldest first. A token's bytes
   * cannot change, so only its expiry needs checking again; jose's HMAC check goes through WebCrypto
   * (a thread-pool round trip) and was 4-14 % of a topic page's CPU.
   */
  readonly #verified = new Map<string, AccessClaims>();

  constructor(secret: Uint8Array, issuer: string, ttlSeconds: number) {
    this.#secret = secret;
    this.#issuer = issuer;
    this.ttlSeconds = ttlSeconds;
  }

  /** A new access token for a person in a session. `nowSeconds` is for tests of expiry. */
  async sign(userId: string, sessionId: string, nowSeconds = Math.floor(Date.now() / 1000)): Promise<string> {
    return new SignJWT({ sid: sessionId })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setSubject(userId)
      .setIssuer(this.#issuer)
      .setAudience(AUDIENCE)
      .setIssuedAt(nowSeconds)
      .setExpirationTime(nowSeconds + this.ttlSeconds)
      .sign(this.#secret);
  }

  /** The claims of a valid token; throws AccessTokenError for an expired, tampered or foreign one. */
  async verify(token: string): Promise<AccessClaims> {
    const known = this.#verified.get(token);
    // Still valid while its expiry is ahead, as jose decides (whole seconds); else checked in full.
    if (known && known.exp > Math.floor(Date.now() / 1000)) return known;
    const claims = await this.#verifyInFull(token);
    if (this.#verified.size >= VERIFIED_CACHE_SIZE)
      this.#verified.delete(this.#verified.keys().next().value!);
    this.#verified.set(token, Object.freeze(claims));
    return claims;
  }

  async #verifyInFull(token: string): Promise<AccessClaims> {
    try {
      const { payload } = await jwtVerify(token, this.#secret, {
        algorithms: [ALGORITHM],
        issuer: this.#issuer,
        audience: AUDIENCE,
        requiredClaims: ['sub', 'sid', 'iat', 'exp'],
      });
      if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') {
        throw new AccessTokenError('The access token lacks its subject or session.');
      }
      return payload as unknown as AccessClaims;
    } catch (error) {
      if (error instanceof AccessTokenError) throw error;
      if (error instanceof errors.JWTExpired) {
        throw new AccessTokenError('The access token has expired: refresh it with POST /api/auth/refresh.');
      }
      throw new AccessTokenError('The access token is not valid: sign in again.');
    }
  }
}
