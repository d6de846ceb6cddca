import { createRemoteJWKSet, errors, type JWTPayload, jwtVerify } from 'jose';
import type { Config } from '../config/index.ts';
import { AppError } from '../http/errors.ts';

type BotConfig = NonNullable<Config['teamsBot']>;

/** The Bot Framework allows this much clock skew between its servers and the bot. */
const CLOCK_TOLERANCE_SECONDS = 300;
/** The OpenID metadata (where the keys are) is read again after this long; the keys themselves refresh on an unknown key id. */
const METADATA_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** What a checked activity token tells the endpoint. */
export interface ActivityTokenClaims {
  claims: JWTPayload;
  /** The `serviceurl` claim: the Bot Connector the activity came through (compared with the activity's). */
  serviceUrl: string | null;
  /** The channels the signing key is endorsed for (`msteams`), or null when the key lists none. */
  endorsements: string[] | null;
}

function refused(message: string): AppError {
  return new AppError('unauthenticated', message);
}

/**
 * Checks the `Authorization: Bearer` token the Bot Framework puts on every activity it sends the
 * bot (the Bot Framework's "Bot Connector to bot" authentication): RS256, signed by a key from the
 * JWKS its OpenID metadata names (TEAMS_BOT_OPENID_METADATA_URL; cached, keys refreshed on an unknown
 * key id), from TEAMS_BOT_TOKEN_ISSUER, for the bot's app id, not expired (5 minutes of skew).
 */
export class ActivityTokenVerifier {
  readonly #bot: BotConfig;
  #keys: { at: number; jwks: Promise<ReturnType<typeof createRemoteJWKSet>> } | null = null;

  constructor(bot: BotConfig) {
    this.#bot = bot;
  }

  /** The remote key set of the metadata's `jwks_uri`, read once a day; a failed read is retried next time. */
  #keySet(): Promise<ReturnType<typeof createRemoteJWKSet>> {
    if (this.#keys && Date.now() - this.#keys.at < METADATA_MAX_AGE_MS) return this.#keys.jwks;
    const jwks = (async () => {
      const response = await fetch(this.#bot.openIdMetadataUrl, { signal: AbortSignal.timeout(5000) });
      if (!response.ok) throw new Error(`the OpenID metadata answered ${response.status}`);
      const metadata = (await response.json()) as { jwks_uri?: unknown };
      if (typeof metadata.jwks_uri !== 'string') throw new Error('the OpenID metadata names no jwks_uri');
      return createRemoteJWKSet(new URL(metadata.jwks_uri), { timeoutDuration: 5000 });
    })();
    const entry = { at: Date.now(), jwks };
    this.#keys = entry;
    jwks.catch(() => {
      if (this.#keys === entry) this.#keys = null;
    });
    return jwks;
  }

  /**
   * The claims of the request's activity token. Throws 401 (`unauthenticated`) for a missing,
   * unsigned, forged, expired, wrong-issuer or wrong-audience token, and 503 when the Bot
   * Framework's keys cannot be read (the Bot Framework sends the activity again later).
   */
  async verify(authorization: string | undefined): Promise<ActivityTokenClaims> {
    const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
    if (!token) throw refused('Send the Bot Framework token of the activity in Authorization: Bearer.');
    let keySet: ReturnType<typeof createRemoteJWKSet>;
    try {
      keySet = await this.#keySet();
    } catch (error) {
      throw new AppError(
        'unavailable',
        `The Bot Framework's keys cannot be read from ${this.#bot.openIdMetadataUrl} (${error instanceof Error ? error.message : String(error)}); check TEAMS_BOT_OPENID_METADATA_URL.`,
      );
    }
    try {
      const { payload, protectedHeader } = await jwtVerify(token, keySet, {
        algorithms: ['RS256'],
        issuer: this.#bot.tokenIssuer,
        audience: this.#bot.appId,
        requiredClaims: ['exp'],
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
      });
      const key = keySet.jwks()?.keys.find((k) => k.kid === protectedHeader.kid) as
        | { endorsements?: unknown }
        | undefined;
      const endorsements = Array.isArray(key?.endorsements)
        ? key.endorsements.filter((e): e is string => typeof e === 'string')
        : null;
      const claim = payload.serviceurl ?? payload.serviceUrl;
      return { claims: payload, serviceUrl: typeof claim === 'string' ? claim : null, endorsements };
    } catch (error) {
      if (error instanceof errors.JOSEError && !(error instanceof errors.JWKSTimeout)) {
        throw refused(
          `The activity token is not valid (${error.code}): it is not from the Bot Framework for this bot.`,
        );
      }
      // The key set could not be fetched (a timeout, a network failure): not the sender's fault.
      throw new AppError('unavailable', "The Bot Framework's keys cannot be read now; try again.");
    }
  }
}

/** Whether two service URLs name one Bot Connector (case and a trailing slash aside). */
export function sameServiceUrl(a: string, b: string): boolean {
  const normal = (url: string) => url.replace(/\/+$/, '').toLowerCase();
  return normal(a) === normal(b);
}
