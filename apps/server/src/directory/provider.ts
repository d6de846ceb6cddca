import { hkdfSync, randomUUID } from 'node:crypto';
import { importJWK, type JWTPayload, jwtVerify, SignJWT } from 'jose';
import type { Kysely } from 'kysely';
import Provider, {
  type Configuration,
  errors,
  interactionPolicy,
  type KoaContextWithOIDC,
} from 'oidc-provider';
import { ADMIN_APP_ROLE } from '../commands/directoryUserUpserter.ts';
import type { Config } from '../config/index.ts';
import type { Database } from '../db/index.ts';
import { databaseAdapter } from './adapter.ts';
import { hasGraphConsent, recordGraphConsent } from './consents.ts';
import { directorySigningKey, publicJwk } from './keys.ts';
import {
  accountEnabled,
  DEVELOPMENT_TENANT_ID,
  type DirectoryPerson,
  personById,
  shownName,
} from './people.ts';

/** The grant type of the on-behalf-of exchange (RFC 7523 bearer assertion, as Entra ID uses it). */
export const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** The public client that stands in for Microsoft Teams: it gets SSO tokens for BTalk's API. */
export const TEAMS_DEVELOPMENT_CLIENT_ID = 'teams-development';

/** Scopes of the development Graph, as Entra names them. */
const GRAPH_SCOPES = 'User.Read User.ReadBasic.All';
/** Scope of BTalk's API that the Teams SSO token carries, as in Microsoft's Teams SSO guide. */
const API_SCOPE = 'access_as_user';
const TOKEN_TTL_SECONDS = 3600;

/** The development directory: a real OpenID Connect provider and the keys its tokens are signed with. */
export interface DevelopmentDirectory {
  provider: Provider;
  issuer: string;
  /** Resource (audience) of its Graph subset's access tokens. */
  graphResource: string;
  /** Audience of Teams SSO tokens for BTalk's API. */
  apiAudience: string;
  /** BTalk's client id here: the subject of its app (client credentials) tokens. */
  clientId: string;
  /** Checks an access token of its Graph subset; throws when it is not one. */
  verifyGraphToken(token: string): Promise<JWTPayload & { sub: string }>;
  /**
   * After a person signed in on the directory's form for a client: for BTalk's own client, that
   * sign-in is where they consent to its Graph permissions (Teams' consent popup), so a person who
   * had to consent is no longer asked by the on-behalf-of exchange.
   */
  signedInInteractively(person: DirectoryPerson, clientId: string): Promise<void>;
}

/** What the development directory needs from the server. */
export interface DevelopmentDirectoryOptions {
  config: Config;
  db: Kysely<Database>;
  /** BTalk's client secret at this directory. */
  clientSecret: string;
  /** A server secret; the directory's cookie keys derive from it, so restarts keep people signed in. */
  secret: Uint8Array;
  /** Where unexpected directory errors are logged. */
  logError(error: unknown, message: string): void;
}

/** Claims of a person in ID tokens, shaped as Entra ID shapes them (oid, tid, roles). */
function personClaims(person: DirectoryPerson) {
  return {
    sub: person.id,
    oid: person.id,
    tid: DEVELOPMENT_TENANT_ID,
    name: shownName(person),
    given_name: person.givenName,
    family_name: person.surname,
    preferred_username: person.email,
    email: person.email,
    email_verified: true,
    locale: person.preferredLanguage,
    roles: person.role === 'admin' ? [ADMIN_APP_ROLE] : [],
  };
}

/**
 * Builds the development directory, mounted at `${publicUrl}/directory`: discovery, authorization
 * with PKCE, tokens (JWT access tokens per resource: its Graph subset, or BTalk's API for the Teams
 * stand-in), refresh tokens, and the on-behalf-of exchange. Sign-in pages are directory/routes.ts.
 */
export async function createDevelopmentDirectory(
  options: DevelopmentDirectoryOptions,
): Promise<DevelopmentDirectory> {
  const { config } = options;
  const settings = config.directory;
  const issuer = settings.issuer;
  const mountPath = new URL(issuer).pathname.replace(/\/+$/, '');
  const graphResource = `${issuer}/graph`;
  const apiAudience = settings.apiAudience;
  const signingKey = directorySigningKey(config.dataDir);
  const publicKey = await importJWK(publicJwk(signingKey), 'RS256');
  const privateKey = await importJWK(signingKey, 'RS256');
  const cookieKey = Buffer.from(hkdfSync('sha256', options.secret, 'btalk-directory', 'cookies', 32));

  const resourceServers: Record<string, { scope: string; audience: string }> = {
    [graphResource]: { scope: GRAPH_SCOPES, audience: graphResource },
    [apiAudience]: { scope: API_SCOPE, audience: apiAudience },
  };
  const defaultResourceOf = (clientId: string | undefined) =>
    clientId === TEAMS_DEVELOPMENT_CLIENT_ID ? apiAudience : graphResource;

  const configuration: Configuration = {
    adapter: databaseAdapter(options.db),
    clients: [
      {
        client_id: settings.clientId,
        client_secret: options.clientSecret,
        redirect_uris: [settings.redirectUri],
        post_logout_redirect_uris: [`${config.publicUrl}/login`],
        // client_credentials: BTalk lists the directory's people with an app token, as on Entra ID.
        grant_types: ['authorization_code', 'refresh_token', JWT_BEARER, 'client_credentials'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
      {
        client_id: TEAMS_DEVELOPMENT_CLIENT_ID,
        redirect_uris: [`${config.publicUrl}/teamtab`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      },
    ],
    jwks: { keys: [signingKey as never] },
    cookies: { keys: [cookieKey] },
    findAccount: (_ctx, sub) => {
      const person = personById(sub);
      // A disabled (or deleted) account gets no more tokens, refresh included.
      if (!person || !accountEnabled(person)) return undefined;
      return { accountId: person.id, claims: () => personClaims(person) };
    },
    claims: {
      openid: ['sub', 'oid', 'tid', 'roles'],
      profile: ['name', 'given_name', 'family_name', 'preferred_username', 'locale'],
      email: ['email', 'email_verified'],
    },
    // Entra ID puts the profile in the ID token whatever the scopes; so does this directory.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (ctx, _client, oneOf) => oneOf?.[0] ?? defaultResourceOf(ctx.oidc.client?.clientId),
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => {
          const server = resourceServers[resource];
          if (!server) throw new errors.InvalidTarget(`unknown resource ${resource}`);
          return {
            ...server,
            accessTokenFormat: 'jwt',
            accessTokenTTL: TOKEN_TTL_SECONDS,
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
    extraTokenClaims: (_ctx, token) =>
      'accountId' in token && typeof token.accountId === 'string'
        ? { oid: token.accountId, tid: DEVELOPMENT_TENANT_ID }
        : undefined,
    interactions: {
      url: (_ctx, interaction) => `${mountPath}/interaction/${interaction.uid}`,
      policy: selectAccountPolicy(),
    },
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // BTalk may present the same directory refresh token from two instances at once.
    rotateRefreshToken: false,
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const { client, session, params } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grantId = session.grantIdFor(client.clientId);
      const existing = grantId ? await ctx.oidc.provider.Grant.find(grantId) : undefined;
      // Every client of this directory is BTalk's own, so it is granted what it asks without a consent screen.
      const grant =
        existing ?? new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope(String(params?.scope ?? 'openid'));
      const asked = params?.resource;
      const resources = Array.isArray(asked) ? asked : [asked ?? defaultResourceOf(client.clientId)];
      for (const resource of resources) {
        const server = resourceServers[String(resource)];
        if (server) grant.addResourceScope(String(resource), server.scope);
      }
      await grant.save();
      return grant;
    },
    ttl: {
      AccessToken: TOKEN_TTL_SECONDS,
      AuthorizationCode: 60,
      IdToken: TOKEN_TTL_SECONDS,
      Interaction: 600,
      Grant: 14 * 86400,
      Session: 14 * 86400,
      RefreshToken: 14 * 86400,
    },
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.body = `<!doctype html><meta charset="utf-8"><title>Sign-in error</title><h1>Sign-in could not continue</h1><p>${String(out.error).replace(/[<>&]/g, '')}: ${String(out.error_description ?? '').replace(/[<>&]/g, '')}</p><p><a href="/login">Start again</a></p>`;
    },
  };

  const provider = new Provider(issuer, configuration);
  // Behind a TLS-terminating proxy (TRUST_PROXY), the directory's own redirects (back to the
  // authorization once signed in) keep the address people use: the proxy's X-Forwarded-Proto and Host.
  provider.proxy = config.trustProxy !== false;
  provider.on('server_error', (_ctx, error) => options.logError(error, 'development directory error'));

  /** Signs a Graph access token as the token endpoint would, for the on-behalf-of exchange. */
  const signGraphToken = (person: DirectoryPerson, clientId: string) =>
    new SignJWT({
      scope: GRAPH_SCOPES,
      client_id: clientId,
      oid: person.id,
      tid: DEVELOPMENT_TENANT_ID,
    })
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: signingKey.kid ?? '' })
      .setIssuer(issuer)
      .setSubject(person.id)
      .setAudience(graphResource)
      .setJti(randomUUID())
      .setIssuedAt()
      .setExpirationTime(`${TOKEN_TTL_SECONDS}s`)
      .sign(privateKey);

  provider.registerGrantType(
    JWT_BEARER,
    async (ctx) => {
      const { assertion, requested_token_use: use } = ctx.oidc.params as Record<string, unknown>;
      if (use !== 'on_behalf_of') {
        throw new errors.InvalidRequest('requested_token_use must be on_behalf_of');
      }
      let sub: string | undefined;
      try {
        const { payload } = await jwtVerify(String(assertion ?? ''), publicKey, {
          issuer,
          audience: apiAudience,
          algorithms: ['RS256'],
        });
        sub = payload.sub;
      } catch {
        throw new errors.InvalidGrant('the assertion is not a valid, unexpired token for this API');
      }
      const person = sub ? personById(sub) : undefined;
      if (!person) throw new errors.InvalidGrant('the assertion names no person of this directory');
      const { clientId } = ctx.oidc.client;
      if (person.graphConsentRequired && !(await hasGraphConsent(options.db, clientId, person.id))) {
        // The answer Entra ID gives when the user has not consented to the app's Graph permissions.
        ctx.status = 400;
        ctx.body = {
          error: 'invalid_grant',
          error_description:
            'AADSTS65001: The user or administrator has not consented to use the application. Send an interactive authorization request for this user and resource.',
          error_codes: [65001],
          suberror: 'consent_required',
        };
        return;
      }
      ctx.body = {
        access_token: await signGraphToken(person, clientId),
        token_type: 'Bearer',
        expires_in: TOKEN_TTL_SECONDS,
        scope: GRAPH_SCOPES,
      };
    },
    ['assertion', 'requested_token_use', 'scope'],
  );

  return {
    provider,
    issuer,
    graphResource,
    apiAudience,
    clientId: settings.clientId,
    async signedInInteractively(person, clientId) {
      if (person.graphConsentRequired && clientId === settings.clientId) {
        await recordGraphConsent(options.db, clientId, person.id);
      }
    },
    async verifyGraphToken(token) {
      const { payload } = await jwtVerify(token, publicKey, {
        issuer,
        audience: graphResource,
        algorithms: ['RS256'],
        requiredClaims: ['sub', 'exp'],
      });
      return payload as JWTPayload & { sub: string };
    },
  };
}

/**
 * The provider's interactions plus `prompt=select_account`, as Entra ID accepts it (BTalk asks for it
 * after a sign-out): the sign-in page is shown even with a directory session, so another person can
 * sign in. The sign-in form's answer resolves it.
 */
function selectAccountPolicy(): interactionPolicy.DefaultPolicy {
  const policy = interactionPolicy.base();
  policy.add(new interactionPolicy.Prompt({ name: 'select_account', requestable: true }), 0);
  return policy;
}
