import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from 'jose';

/** The issuer and audience the stand-in signs with by default; tests configure the bot with them. */
export const TEST_BOT_APP_ID = '00000000-0000-4000-8000-0000000b0700';
export const TEST_BOT_TOKEN_ISSUER = 'https://api.botframework.test';

type PrivateKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

/** How to spoil a token, for the refusal tests. */
export interface ActivityTokenOptions {
  /** Claims to add or replace (`aud`, `iss`, `serviceurl`); `undefined` removes one. */
  claims?: Record<string, unknown>;
  /** Seconds from now the token expires (negative: already expired); default one hour. */
  expiresIn?: number;
  /** Sign with a key the metadata does not publish (a forger's). */
  foreignKey?: boolean;
}

/**
 * A loopback stand-in for the Bot Framework's token issuer: it publishes OpenID metadata and a JWKS
 * (with Teams' `endorsements`) like https://login.botframework.com does, and signs the tokens the
 * Bot Connector puts on the activities it sends a bot.
 */
export interface BotIssuer {
  /** The metadata's address: the bot's TEAMS_BOT_OPENID_METADATA_URL. */
  metadataUrl: string;
  /** Environment for `useTestServer`: a bot that trusts this issuer. */
  env: Record<string, string>;
  /** A signed activity token for `serviceUrl` (the `serviceurl` claim), spoiled as `options` say. */
  sign(serviceUrl: string, options?: ActivityTokenOptions): Promise<string>;
  /** How many times the JWKS was fetched (the bot caches it). */
  jwksFetches(): number;
  close(): Promise<void>;
}

/** Starts the issuer stand-in on a free loopback port. */
export async function startBotIssuer(): Promise<BotIssuer> {
  const trusted = await generateKeyPair('RS256', { extractable: true });
  const foreign = await generateKeyPair('RS256', { extractable: true });
  const kid = randomUUID();
  const jwk: JWK = {
    ...(await exportJWK(trusted.publicKey)),
    kid,
    use: 'sig',
    alg: 'RS256',
    endorsements: ['msteams'],
  } as JWK;
  let fetches = 0;
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (path === '/v1/.well-known/openidconfiguration') {
      return json(200, {
        issuer: TEST_BOT_TOKEN_ISSUER,
        jwks_uri: `${base}/v1/.well-known/keys`,
        id_token_signing_alg_values_supported: ['RS256'],
        token_endpoint_auth_methods_supported: ['private_key_jwt'],
      });
    }
    if (path === '/v1/.well-known/keys') {
      fetches += 1;
      return json(200, { keys: [jwk] });
    }
    json(404, { error: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const metadataUrl = `${base}/v1/.well-known/openidconfiguration`;

  async function sign(serviceUrl: string, options: ActivityTokenOptions = {}): Promise<string> {
    const seconds = Math.floor(Date.now() / 1000);
    const expiresIn = options.expiresIn ?? 3600;
    const claims: Record<string, unknown> = {
      iss: TEST_BOT_TOKEN_ISSUER,
      aud: TEST_BOT_APP_ID,
      serviceurl: serviceUrl,
      nbf: Math.min(seconds, seconds + expiresIn) - 300,
      iat: Math.min(seconds, seconds + expiresIn) - 300,
      exp: seconds + expiresIn,
      ...options.claims,
    };
    for (const [name, value] of Object.entries(claims)) if (value === undefined) delete claims[name];
    const key: PrivateKey = options.foreignKey ? foreign.privateKey : trusted.privateKey;
    // A forger names the published key id: only the signature gives them away.
    return new SignJWT(claims as JWTPayload).setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' }).sign(key);
  }

  return {
    metadataUrl,
    env: {
      TEAMS_BOT_APP_ID: TEST_BOT_APP_ID,
      TEAMS_BOT_APP_PASSWORD: 'test-bot-secret',
      TEAMS_BOT_OPENID_METADATA_URL: metadataUrl,
      TEAMS_BOT_TOKEN_ISSUER: TEST_BOT_TOKEN_ISSUER,
    },
    sign,
    jwksFetches: () => fetches,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
