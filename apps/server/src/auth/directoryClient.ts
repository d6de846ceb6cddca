import { createRemoteJWKSet, type JWTPayload, errors as joseErrors, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import type { DirectoryListing, ListedPerson } from '../commands/directoryPeopleSyncer.ts';
import { ADMIN_APP_ROLE } from '../commands/directoryUserUpserter.ts';
import type { DirectoryConfig } from '../config/index.ts';
import { AppError } from '../http/errors.ts';

/** The tokens BTalk keeps from the directory for a session. */
export interface DirectoryTokens {
  accessToken: string;
  /** When the access token expires (ISO-8601). */
  accessExpiresAt: string;
  /** The directory's refresh token, when it gave one; it never leaves the server. */
  refreshToken: string | null;
}

/** Who the directory says signed in: the ID token's (or Teams token's) claims. */
export interface DirectoryIdentity {
  issuer: string;
  /** The key of the person at the directory (Entra: the object id `oid`; elsewhere `sub`). */
  subject: string;
  tenantId: string | null;
  email: string | null;
  name: string | null;
  locale: string | null;
  /** App roles the directory assigns (Entra `roles`). */
  roles: string[];
}

/** A person's profile from the directory's Graph API. */
export interface GraphProfile {
  displayName: string | null;
  /** Given name and surname (Latin script in the development directory); absent when not read. */
  givenName?: string | null;
  surname?: string | null;
  mail: string | null;
  userPrincipalName: string | null;
  department: string | null;
  jobTitle: string | null;
  preferredLanguage: string | null;
  /** Mobile number, else the first business number: for managers chasing an unanswered call tree. */
  phone: string | null;
  /** The manager's Graph id (their directory subject), or null at the top or when unknown. */
  managerId: string | null;
}

/** Thrown when the directory answers that the person must consent before BTalk may call Graph. */
export class ConsentRequiredError extends Error {
  override name = 'ConsentRequiredError';
}

/** The Graph user properties a profile is read from. */
const GRAPH_PROFILE_FIELDS =
  'id,displayName,givenName,surname,mail,userPrincipalName,department,jobTitle,preferredLanguage,mobilePhone,businessPhones';
/** The Graph user properties a listing of the directory's people reads. */
const GRAPH_LISTING_FIELDS = `${GRAPH_PROFILE_FIELDS},accountEnabled`;
/** At most this many pages of 999 people are read from a directory listing. */
const MAX_LISTING_PAGES = 500;

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

function text(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}

/** The tenant id in an Entra ID v2.0 issuer URL, or null for any other issuer. */
export function entraTenantOf(issuer: string): string | null {
  return /^https:\/\/login\.microsoftonline\.com\/([^/]+)\/v2\.0$/.exec(issuer)?.[1] ?? null;
}

/** A Graph user's mobile number, else their first business number. */
function phoneOf(user: Record<string, unknown>): string | null {
  return text(user.mobilePhone) ?? (Array.isArray(user.businessPhones) ? text(user.businessPhones[0]) : null);
}

/** How the directory said no, for logs and messages (never the tokens). */
function reason(error: unknown): string {
  if (error instanceof oidc.ResponseBodyError)
    return `${error.error}: ${error.error_description ?? ''}`.trim();
  return error instanceof Error ? error.message : String(error);
}

function isConsentRequired(error: unknown): boolean {
  if (!(error instanceof oidc.ResponseBodyError)) return false;
  const body = error.cause as Record<string, unknown>;
  const codes = Array.isArray(body.error_codes) ? body.error_codes : [];
  return (
    error.error === 'consent_required' ||
    error.error === 'interaction_required' ||
    body.suberror === 'consent_required' ||
    codes.includes(65001)
  );
}

/**
 * BTalk as a confidential OpenID Connect client of its directory (openid-client): authorization URLs
 * with state, nonce and PKCE, the code exchange with ID token checks, refreshes, the on-behalf-of
 * exchange for Teams, Teams SSO token checks against the directory's keys, and Graph profile reads.
 */
export class DirectoryClient {
  readonly settings: DirectoryConfig;
  readonly #clientSecret: string;
  #configuration: Promise<oidc.Configuration> | null = null;
  #jwks: ReturnType<typeof createRemoteJWKSet> | null = null;

  constructor(settings: DirectoryConfig, clientSecret: string) {
    this.settings = settings;
    this.#clientSecret = clientSecret;
  }

  /** The directory's client secret for BTalk (the development directory registers the same). */
  get clientSecret(): string {
    return this.#clientSecret;
  }

  /** The directory's metadata and BTalk's client, discovered once (retried after a failure). */
  configuration(): Promise<oidc.Configuration> {
    if (!this.#configuration) {
      const insecure = new URL(this.settings.issuer).protocol === 'http:';
      this.#configuration = oidc
        .discovery(
          new URL(this.settings.issuer),
          this.settings.clientId,
          { redirect_uris: [this.settings.redirectUri], response_types: ['code'] },
          oidc.ClientSecretBasic(this.#clientSecret),
          // Plain http is only ever the development directory on this machine.
          insecure ? { execute: [oidc.allowInsecureRequests] } : {},
        )
        .catch((error: unknown) => {
          this.#configuration = null;
          throw new AppError(
            'unavailable',
            `The directory at ${this.settings.issuer} cannot be reached (${reason(error)}); check PUBLIC_URL, ENTRA_TENANT_ID or OIDC_ISSUER.`,
          );
        });
    }
    return this.#configuration;
  }

  /**
   * The authorization URL of a new sign-in attempt; `prompt: 'select_account'` (after a sign-out)
   * makes the directory ask who signs in rather than reuse its own session.
   */
  async authorizationUrl(
    attempt: { state: string; nonce: string; codeVerifier: string },
    prompt?: 'select_account',
  ): Promise<URL> {
    const config = await this.configuration();
    return oidc.buildAuthorizationUrl(config, {
      ...(prompt ? { prompt } : {}),
      redirect_uri: this.settings.redirectUri,
      scope: this.settings.scopes,
      state: attempt.state,
      nonce: attempt.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(attempt.codeVerifier),
      code_challenge_method: 'S256',
      response_mode: 'query',
    });
  }

  /**
   * Exchanges the code from the callback, checking state, nonce, PKCE and the ID token. Throws
   * AppError('unauthenticated') when the directory or the checks refuse it.
   */
  async exchangeCode(
    callback: URL,
    checks: { state: string; nonce: string; codeVerifier: string },
  ): Promise<{ identity: DirectoryIdentity; tokens: DirectoryTokens }> {
    const config = await this.configuration();
    let response: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      response = await oidc.authorizationCodeGrant(config, callback, {
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        pkceCodeVerifier: checks.codeVerifier,
        idTokenExpected: true,
      });
    } catch (error) {
      throw new AppError(
        'unauthenticated',
        `The directory did not accept this sign-in (${reason(error)}): start again with GET /api/auth/aad.`,
      );
    }
    const claims = response.claims();
    if (!claims) throw new AppError('unauthenticated', 'The directory sent no ID token: start again.');
    return { identity: this.identity(claims), tokens: this.#tokens(response) };
  }

  /** A fresh directory access token from the directory's refresh token. */
  async refresh(refreshToken: string): Promise<DirectoryTokens> {
    const config = await this.configuration();
    try {
      const response = await oidc.refreshTokenGrant(config, refreshToken);
      const tokens = this.#tokens(response);
      return { ...tokens, refreshToken: tokens.refreshToken ?? refreshToken };
    } catch (error) {
      throw new AppError(
        'unauthenticated',
        `The directory refused to renew its token (${reason(error)}): sign in again.`,
      );
    }
  }

  /**
   * The on-behalf-of exchange: a Graph token for the person of a Teams SSO token. Throws
   * ConsentRequiredError when the directory says the person must consent first.
   */
  async onBehalfOf(assertion: string): Promise<DirectoryTokens> {
    const config = await this.configuration();
    try {
      const response = await oidc.genericGrantRequest(config, JWT_BEARER, {
        assertion,
        requested_token_use: 'on_behalf_of',
        scope: this.settings.graphScope,
      });
      return this.#tokens(response);
    } catch (error) {
      if (isConsentRequired(error)) throw new ConsentRequiredError(reason(error));
      throw new AppError(
        'unauthenticated',
        `The directory refused the on-behalf-of exchange (${reason(error)}): get a new Teams token and try again.`,
      );
    }
  }

  /**
   * Checks a Teams SSO token: signed by one of the directory's published keys (RS256 only; keys named
   * in the token itself are never used), from the directory's issuer, for BTalk's API, not expired.
   */
  async verifyTeamToken(token: string): Promise<DirectoryIdentity> {
    const config = await this.configuration();
    const metadata = config.serverMetadata();
    if (!metadata.jwks_uri) throw new AppError('unavailable', 'The directory publishes no keys (jwks_uri).');
    this.#jwks ??= createRemoteJWKSet(new URL(metadata.jwks_uri));
    const issuers = [metadata.issuer];
    // Teams tokens of an app that accepts v1 tokens come from the tenant's v1 issuer.
    const tenant = entraTenantOf(metadata.issuer);
    if (tenant) issuers.push(`https://sts.windows.net/${tenant}/`);
    try {
      const { payload } = await jwtVerify(token, this.#jwks, {
        algorithms: ['RS256'],
        issuer: issuers,
        audience: [this.settings.apiAudience, this.settings.clientId],
        requiredClaims: ['sub', 'exp', 'iat'],
      });
      return this.identity(payload);
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) {
        throw new AppError('unauthenticated', 'The Teams token has expired: ask Teams for a new one.');
      }
      throw new AppError(
        'unauthenticated',
        `The Teams token is not valid for this server (${error instanceof Error ? error.message : 'unreadable'}).`,
      );
    }
  }

  /** The person's profile and manager from Graph, or null when the directory has no Graph. */
  async graphProfile(accessToken: string): Promise<GraphProfile | null> {
    const base = this.settings.graphBase;
    if (!base) return null;
    const get = (path: string) =>
      fetch(`${base}${path}`, {
        headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
        signal: AbortSignal.timeout(10_000),
      });
    // Graph's default /me leaves out the department: every property used is asked for by name.
    const me = await get(`/me?$select=${GRAPH_PROFILE_FIELDS}`);
    if (!me.ok) {
      throw new AppError(
        'unavailable',
        `Graph answered ${me.status} to /me; check the app's User.Read permission.`,
      );
    }
    const profile = (await me.json()) as Record<string, unknown>;
    const manager = await get('/me/manager');
    const managerId = manager.ok ? text(((await manager.json()) as Record<string, unknown>).id) : null;
    return {
      displayName: text(profile.displayName),
      givenName: text(profile.givenName),
      surname: text(profile.surname),
      mail: text(profile.mail),
      userPrincipalName: text(profile.userPrincipalName),
      department: text(profile.department),
      jobTitle: text(profile.jobTitle),
      preferredLanguage: text(profile.preferredLanguage),
      phone: phoneOf(profile),
      managerId,
    };
  }

  /**
   * Every person of the directory with their manager, whether their account is enabled, and whether
   * they hold BTalk's admin app role, read from Graph's `/users` with BTalk's own app token (client
   * credentials; on Entra ID the `User.Read.All` application permission; `Application.Read.All` for
   * the app roles), so that call trees reach people who never signed in and sync follows the
   * directory. `complete` is false when the listing stopped before its last page. Null when the
   * directory has no Graph.
   */
  async listPeople(tenantId: string | null): Promise<DirectoryListing | null> {
    const base = this.settings.graphBase;
    if (!base) return null;
    const config = await this.configuration();
    let token: string;
    try {
      const response = await oidc.clientCredentialsGrant(
        config,
        this.settings.kind === 'entra' ? { scope: 'https://graph.microsoft.com/.default' } : {},
      );
      token = response.access_token;
    } catch (error) {
      throw new AppError(
        'unavailable',
        `The directory gave BTalk no app token to list its people (${reason(error)}); check the client secret.`,
      );
    }
    const graph = async (url: string, what: string, permission: string) => {
      const answer = await fetch(url, {
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
        signal: AbortSignal.timeout(30_000),
      });
      if (!answer.ok) {
        throw new AppError(
          'unavailable',
          `Graph answered ${answer.status} to ${what}; grant the app the ${permission} application permission.`,
        );
      }
      return (await answer.json()) as Record<string, unknown> & {
        value?: Array<Record<string, unknown>>;
        '@odata.nextLink'?: unknown;
      };
    };
    const admins = await this.#adminSubjects(base, graph);
    const people: ListedPerson[] = [];
    let next: string | null =
      `${base}/users?$select=${GRAPH_LISTING_FIELDS}&$expand=manager($select=id)&$top=999`;
    for (let page = 0; next && page < MAX_LISTING_PAGES; page++) {
      const body = await graph(next, 'the people listing', 'User.Read.All');
      for (const user of body.value ?? []) {
        const subject = text(user.id);
        const email = text(user.mail) ?? text(user.userPrincipalName);
        if (!subject || !email) continue;
        const manager = user.manager as Record<string, unknown> | undefined;
        people.push({
          subject,
          tenantId,
          email,
          displayName: text(user.displayName) ?? email,
          givenName: text(user.givenName),
          surname: text(user.surname),
          department: text(user.department),
          jobTitle: text(user.jobTitle),
          phone: phoneOf(user),
          managerSubject: text(manager?.id),
          locale: /^th\b/i.test(text(user.preferredLanguage) ?? '') ? 'th' : 'en',
          admin: admins.users.has(subject) ? true : admins.known ? false : null,
          // Graph leaves out properties it was not asked for; only an explicit false disables.
          enabled: user.accountEnabled !== false,
        });
      }
      next = text(body['@odata.nextLink']);
    }
    return { people, complete: next === null };
  }

  /**
   * Who holds BTalk's admin app role, from the assignments of BTalk's service principal. `known` is
   * false when a group holds the role too (its members are not expanded here: their sign-in tokens
   * carry the role, and sync then neither gives nor takes it from anyone not assigned directly).
   */
  async #adminSubjects(
    base: string,
    graph: (url: string, what: string, permission: string) => Promise<Record<string, unknown>>,
  ): Promise<{ users: Set<string>; known: boolean }> {
    let principal: Record<string, unknown>;
    try {
      principal = await graph(
        `${base}/servicePrincipals(appId='${encodeURIComponent(this.settings.clientId)}')?$select=id,appRoles`,
        "BTalk's service principal",
        'Application.Read.All',
      );
    } catch {
      // Without Application.Read.All the people are still listed; sign-in tokens keep roles in line.
      return { users: new Set(), known: false };
    }
    const roles = Array.isArray(principal.appRoles)
      ? (principal.appRoles as Array<Record<string, unknown>>)
      : [];
    const adminRole = roles.find((r) => r.value === ADMIN_APP_ROLE)?.id;
    const users = new Set<string>();
    let known = true;
    let next: string | null = adminRole
      ? `${base}/servicePrincipals/${encodeURIComponent(String(principal.id))}/appRoleAssignedTo?$top=999`
      : null;
    for (let page = 0; next && page < MAX_LISTING_PAGES; page++) {
      const body = (await graph(next, 'the app role assignments', 'Application.Read.All')) as {
        value?: Array<Record<string, unknown>>;
        '@odata.nextLink'?: unknown;
      };
      for (const assignment of body.value ?? []) {
        if (assignment.appRoleId !== adminRole) continue;
        const principalId = text(assignment.principalId);
        if (assignment.principalType === 'User' && principalId) users.add(principalId);
        else known = false;
      }
      next = text(body['@odata.nextLink']);
    }
    // An unfinished listing of assignments cannot tell who lost the role.
    if (next !== null) known = false;
    return { users, known };
  }

  /** Who the claims name: Entra ID people by tenant and object id, others by subject. */
  identity(claims: JWTPayload | oidc.IDToken): DirectoryIdentity {
    const c = claims as Record<string, unknown>;
    const subject = this.settings.kind === 'entra' ? (text(c.oid) ?? String(c.sub)) : String(c.sub);
    return {
      issuer: this.settings.issuer,
      subject,
      tenantId: text(c.tid),
      email: text(c.email) ?? text(c.preferred_username) ?? text(c.upn),
      name: text(c.name),
      locale: text(c.locale),
      roles: Array.isArray(c.roles) ? c.roles.filter((r): r is string => typeof r === 'string') : [],
    };
  }

  #tokens(response: oidc.TokenEndpointResponse): DirectoryTokens {
    const seconds = typeof response.expires_in === 'number' ? response.expires_in : 3600;
    return {
      accessToken: response.access_token,
      accessExpiresAt: new Date(Date.now() + seconds * 1000).toISOString(),
      refreshToken: response.refresh_token ?? null,
    };
  }
}
