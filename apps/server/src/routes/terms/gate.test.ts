import { ErrorCode } from '@btalk/contracts';
import { expect, it } from 'vitest';
import { newId } from '../../ids.ts';
import { describeEachDatabase } from '../../test/db.ts';
import { useTestServer } from '../../test/server.ts';
import { signedIn } from '../../test/session.ts';

/**
 * Routes that answer people who have not accepted the terms: sign-in, session and terms, and what a
 * call-tree event's banner needs (the pending list and one's own answer; on behalf is refused inside).
 */
function exemptFromTerms(method: string, path: string): boolean {
  return (
    path.startsWith('/api/auth/') ||
    path.startsWith('/api/terms/') ||
    (method === 'GET' && path === '/api/me') ||
    (method === 'GET' && path === '/api/calltree/events/pending') ||
    (method === 'POST' && path === '/api/calltree/events/{eventId}/answers')
  );
}

interface OpenApiDocument {
  paths: Record<string, Record<string, unknown>>;
}

/**
 * Every API route of the app as the OpenAPI document lists it (so routes added later are covered),
 * with path parameters filled in.
 */
function registeredRoutes(doc: OpenApiDocument): { method: string; path: string; url: string }[] {
  const methods = new Set(['get', 'post', 'put', 'patch', 'delete']);
  const api = Object.entries(doc.paths).filter(([path]) => path.startsWith('/api/'));
  return api.flatMap(([path, operations]) =>
    Object.keys(operations)
      .filter((m) => methods.has(m))
      .map((m) => ({ method: m.toUpperCase(), path, url: path.replace(/\{[^}]+\}/g, newId()) })),
  );
}

describeEachDatabase('the terms gate on every registered route', (kind) => {
  const server = useTestServer(kind);

  it('answers 4404 on every route that needs sign-in, except sign-in, session, terms and call-tree answer routes', async () => {
    const routes = registeredRoutes((await server.app.swagger()) as unknown as OpenApiDocument);
    const checked: string[] = [];
    for (const route of routes) {
      const method = route.method as 'GET';
      const anonymous = await server.request({ method, url: route.url });
      // Routes that answer without a session (health, analytics) have no gate to pass.
      if (anonymous.statusCode !== 401 || anonymous.json().code !== ErrorCode.unauthenticated) continue;
      // A new person per route: a route such as sign-out ends the session it is called with.
      const { headers } = await signedIn(server, {}, { acceptedTerms: false });
      const res = await server.request({ method, url: route.url, headers });
      const name = `${route.method} ${route.path}`;
      checked.push(name);
      if (exemptFromTerms(route.method, route.path)) {
        expect(res.json().code, `${name} must answer before the terms are accepted`).not.toBe(
          ErrorCode.termsNotAccepted,
        );
      } else {
        expect(res.statusCode, `${name} must be gated`).toBe(403);
        expect(res.json().code, `${name} must be gated`).toBe(ErrorCode.termsNotAccepted);
      }
    }
    // The terms routes and GET /api/me are always there: the loop above really ran.
    expect(checked).toEqual(
      expect.arrayContaining([
        'GET /api/me',
        'GET /api/terms/current',
        'POST /api/terms/acceptances',
        'GET /api/terms/acceptances',
        'POST /api/terms/versions',
        'GET /api/terms/versions',
        'GET /api/calltree/events/pending',
        'POST /api/calltree/events/{eventId}/answers',
      ]),
    );
  });

  it('lets a person who accepted through on the same routes', async () => {
    const { headers } = await signedIn(server);
    const routes = registeredRoutes((await server.app.swagger()) as unknown as OpenApiDocument);
    for (const route of routes) {
      const res = await server.request({ method: route.method as 'GET', url: route.url, headers });
      expect(res.json().code, `${route.method} ${route.path}`).not.toBe(ErrorCode.termsNotAccepted);
    }
  });
});
