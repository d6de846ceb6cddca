import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ADMIN_APP_ROLE } from '../commands/directoryUserUpserter.ts';
import { escapeHtml } from './loginPage.ts';
import {
  accountEnabled,
  type DirectoryPerson,
  directReports,
  people,
  personById,
  shownName,
} from './people.ts';
import type { DevelopmentDirectory } from './provider.ts';

/** A person as Microsoft Graph's `user` resource shows them (the fields BTalk uses). */
export function graphUser(person: DirectoryPerson) {
  return {
    id: person.id,
    displayName: shownName(person),
    givenName: person.givenName,
    surname: person.surname,
    mail: person.email,
    userPrincipalName: person.email,
    jobTitle: person.jobTitle,
    department: person.department,
    preferredLanguage: person.preferredLanguage === 'th' ? 'th-TH' : 'en-US',
    mobilePhone: person.mobilePhone,
    businessPhones: [] as string[],
    officeLocation: null,
    accountEnabled: accountEnabled(person),
  };
}

/** The object id of BTalk's service principal in the development directory (fixed, like a real one). */
export const DEVELOPMENT_SERVICE_PRINCIPAL_ID = '5b1d2c6e-7c55-4d1e-9a3e-0b7a1c0ffee1';
/** The id of the `BTalk.Admin` app role of BTalk's app registration in the development directory. */
export const DEVELOPMENT_ADMIN_ROLE_ID = '8e0f6a4b-2d3c-4b7a-9f1e-0b7a1ad0a1a1';

function graphError(reply: FastifyReply, status: number, code: string, message: string) {
  return reply.status(status).send({ error: { code, message } });
}

const DEFAULT_TOP = 100;
const MAX_TOP = 999;

/** `$search="displayName:som"`, `$search="mail:som"` or `$search="som"`: by either name or e-mail. */
function searchPeople(list: readonly DirectoryPerson[], search: string): DirectoryPerson[] {
  const unquoted = search.replace(/^"|"$/g, '');
  const [property, ...rest] = unquoted.includes(':') ? unquoted.split(':') : ['', unquoted];
  const term = rest.join(':').trim().toLowerCase();
  return list.filter((p) => {
    const names = [p.displayName, p.displayNameTh, p.givenName, p.surname].map((n) => n.toLowerCase());
    if (property === 'mail' || property === 'userPrincipalName') return p.email.toLowerCase().includes(term);
    if (property === 'displayName') return names.some((n) => n.includes(term));
    return names.some((n) => n.includes(term)) || p.email.toLowerCase().includes(term);
  });
}

/** The `$filter` expressions BTalk uses; anything else is a 400 as Graph gives for unsupported ones. */
function filterPeople(list: readonly DirectoryPerson[], filter: string): DirectoryPerson[] | null {
  const startsWith = /^startswith\((displayName|mail|givenName|surname),\s*'((?:[^']|'')*)'\)$/i.exec(
    filter.trim(),
  );
  if (startsWith) {
    const [, field, raw] = startsWith;
    const value = (raw ?? '').replace(/''/g, "'").toLowerCase();
    return list.filter((p) => {
      const g = graphUser(p);
      if (field === 'displayName') {
        return [p.displayName, p.displayNameTh].some((n) => n.toLowerCase().startsWith(value));
      }
      return String(g[field as 'mail' | 'givenName' | 'surname'])
        .toLowerCase()
        .startsWith(value);
    });
  }
  const equals =
    /^(displayName|mail|userPrincipalName|department|jobTitle|id)\s+eq\s+'((?:[^']|'')*)'$/i.exec(
      filter.trim(),
    );
  if (equals) {
    const [, field, raw] = equals;
    const value = (raw ?? '').replace(/''/g, "'").toLowerCase();
    return list.filter((p) => String(graphUser(p)[field as 'mail']).toLowerCase() === value);
  }
  return null;
}

/**
 * One page of a Graph collection: `$top` items from `$skiptoken` on, with `@odata.nextLink` to the
 * next page as Graph pages; a bad `$top` or `$skiptoken` is Graph's 400.
 */
function pageOfGraph<T>(
  reply: FastifyReply,
  directory: DevelopmentDirectory,
  list: readonly T[],
  q: Record<string, string | undefined>,
  path: string,
) {
  const top = q.$top === undefined ? DEFAULT_TOP : Number(q.$top);
  if (!Number.isInteger(top) || top < 1 || top > MAX_TOP) {
    return graphError(
      reply,
      400,
      'BadRequest',
      `Invalid page size specified: '${q.$top}'. Must be between 1 and 999 inclusive.`,
    );
  }
  const skip = q.$skiptoken === undefined ? 0 : Number(q.$skiptoken);
  if (!Number.isInteger(skip) || skip < 0) {
    return graphError(reply, 400, 'BadRequest', `Invalid $skiptoken: '${q.$skiptoken}'.`);
  }
  const value = list.slice(skip, skip + top);
  if (skip + top >= list.length) return { value };
  const next = new URL(`${directory.issuer}/graph/v1.0/${path}`);
  for (const [key, v] of Object.entries(q))
    if (v !== undefined && key !== '$skiptoken') next.searchParams.set(key, String(v));
  next.searchParams.set('$skiptoken', String(skip + top));
  return { '@odata.nextLink': next.toString(), value };
}

function forbidden(reply: FastifyReply) {
  return graphError(
    reply,
    403,
    'Authorization_RequestDenied',
    'Insufficient privileges to complete the operation.',
  );
}

const PALETTE = ['#472F92', '#8F0562', '#1E6A8C', '#2E7D32', '#B45309', '#5B21B6'];

/** A generated avatar: the person's initials on a colour picked from their id. */
function avatarSvg(person: DirectoryPerson): string {
  const initials = `${person.givenName[0] ?? ''}${person.surname[0] ?? ''}`.toUpperCase();
  const colour = PALETTE[Number.parseInt(person.id.slice(0, 2), 16) % PALETTE.length];
  return `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="240" viewBox="0 0 240 240"><rect width="240" height="240" fill="${colour}"/><text x="120" y="120" dy=".35em" text-anchor="middle" font-family="system-ui, sans-serif" font-size="96" font-weight="600" fill="#fff">${escapeHtml(initials)}</text></svg>`;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The person whose Graph token the request carries (development Graph only). */
    graphPerson?: DirectoryPerson;
  }
}

/**
 * The subset of Microsoft Graph v1.0 that BTalk uses, served from the development directory's people
 * under `${issuer}/graph/v1.0`. Every call needs a Graph access token of this directory as a bearer.
 */
export function registerDevelopmentGraph(app: FastifyInstance, directory: DevelopmentDirectory): void {
  const checkBearer = async (request: FastifyRequest, reply: FastifyReply) => {
    const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
    if (!match?.[1]) {
      return graphError(reply, 401, 'InvalidAuthenticationToken', 'Access token is empty.');
    }
    try {
      const claims = await directory.verifyGraphToken(match[1]);
      const person = personById(claims.sub);
      // BTalk's app token (client credentials) names the client, not a person: it may list users.
      if (person) request.graphPerson = person;
      else if (claims.sub !== directory.clientId) {
        return graphError(reply, 401, 'InvalidAuthenticationToken', 'The token names no user.');
      }
    } catch {
      return graphError(reply, 401, 'InvalidAuthenticationToken', 'Access token validation failure.');
    }
  };
  const person = (request: FastifyRequest<{ Params: { id?: string } }>) => {
    const id = request.params.id;
    // As on Graph, /me needs a person's (delegated) token; an app token gets 404 here.
    if (id === undefined) return request.graphPerson;
    return personById(id) ?? people.find((p) => p.email.toLowerCase() === id.toLowerCase());
  };
  const notFound = (reply: FastifyReply, id: string | undefined) =>
    graphError(reply, 404, 'Request_ResourceNotFound', `Resource '${id ?? 'me'}' does not exist.`);
  const base = '/graph/v1.0';

  app.register(async (graph) => {
    graph.addHook('onRequest', checkBearer);
    graph.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'private, max-age=3600');
    });

    for (const prefix of ['/me', '/users/:id'] as const) {
      graph.get<{ Params: { id?: string } }>(`${base}${prefix}`, async (request, reply) => {
        const found = person(request);
        return found ? graphUser(found) : notFound(reply, request.params.id);
      });
      graph.get<{ Params: { id?: string } }>(`${base}${prefix}/manager`, async (request, reply) => {
        const found = person(request);
        if (!found) return notFound(reply, request.params.id);
        const manager = found.managerId ? personById(found.managerId) : undefined;
        return manager ? graphUser(manager) : notFound(reply, 'manager');
      });
      graph.get<{ Params: { id?: string } }>(`${base}${prefix}/directReports`, async (request, reply) => {
        const found = person(request);
        if (!found) return notFound(reply, request.params.id);
        return { value: directReports(found.id).map(graphUser) };
      });
      graph.get<{ Params: { id?: string } }>(`${base}${prefix}/photo/$value`, async (request, reply) => {
        const found = person(request);
        if (!found) return notFound(reply, request.params.id);
        return reply
          .type('image/svg+xml')
          .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
          .send(avatarSvg(found));
      });
    }

    // BTalk's service principal (`/servicePrincipals(appId='…')`) with its app roles, and who holds
    // them (`appRoleAssignedTo`, paged): app tokens only, as with Application.Read.All.
    graph.get<{ Params: { resource: string } }>(`${base}/:resource`, async (request, reply) => {
      const appId = /^servicePrincipals\(appId='([^']*)'\)$/.exec(request.params.resource)?.[1];
      if (request.graphPerson) return forbidden(reply);
      if (appId !== directory.clientId) return notFound(reply, request.params.resource);
      return {
        id: DEVELOPMENT_SERVICE_PRINCIPAL_ID,
        appId,
        appRoles: [
          {
            id: DEVELOPMENT_ADMIN_ROLE_ID,
            value: ADMIN_APP_ROLE,
            displayName: 'BTalk administrator',
            isEnabled: true,
            allowedMemberTypes: ['User'],
          },
        ],
      };
    });
    graph.get<{ Params: { id: string }; Querystring: Record<string, string | undefined> }>(
      `${base}/servicePrincipals/:id/appRoleAssignedTo`,
      async (request, reply) => {
        if (request.graphPerson) return forbidden(reply);
        if (request.params.id !== DEVELOPMENT_SERVICE_PRINCIPAL_ID) return notFound(reply, request.params.id);
        const assigned = people
          .filter((p) => p.role === 'admin')
          .map((p) => ({
            id: `assignment-${p.id}`,
            appRoleId: DEVELOPMENT_ADMIN_ROLE_ID,
            principalId: p.id,
            principalType: 'User',
            principalDisplayName: shownName(p),
            resourceId: DEVELOPMENT_SERVICE_PRINCIPAL_ID,
          }));
        return pageOfGraph(
          reply,
          directory,
          assigned,
          request.query,
          `servicePrincipals/${request.params.id}/appRoleAssignedTo`,
        );
      },
    );

    graph.get<{ Querystring: Record<string, string | undefined> }>(
      `${base}/users`,
      async (request, reply) => {
        const q = request.query;
        let list: DirectoryPerson[] = [...people];
        if (q.$search) list = searchPeople(list, q.$search);
        if (q.$filter) {
          const filtered = filterPeople(list, q.$filter);
          if (!filtered) {
            return graphError(reply, 400, 'BadRequest', `Unsupported query: $filter=${q.$filter}`);
          }
          list = filtered;
        }
        // `$expand=manager` adds each manager's id.
        const expandManager = /^manager(\(|$)/.test(q.$expand ?? '');
        const value = list.map((p) => ({
          ...graphUser(p),
          ...(expandManager && p.managerId ? { manager: { id: p.managerId } } : {}),
        }));
        return pageOfGraph(reply, directory, value, q, 'users');
      },
    );
  });
}
