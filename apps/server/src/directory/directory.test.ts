import { describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../test/db.ts';
import {
  browserApi,
  CookieBrowser,
  directorySignIn,
  type ListeningTestServer,
  postCode,
  useListeningTestServer,
} from '../test/listening.ts';
import { syncDevelopmentPeople } from './index.ts';
import { people, personByEmail, personById } from './people.ts';

// biome-ignore lint/suspicious/noExplicitAny: tests read JSON answers loosely, as inject().json() does.
type Json = Record<string, any>;

describe('the development directory people', () => {
  it('are at least 40, with Thai and English names, departments and job titles', () => {
    expect(people.length).toBeGreaterThanOrEqual(40);
    for (const p of people) {
      expect(p.displayNameTh).toMatch(/[\u0E00-\u0E7F]/);
      expect(p.displayName).toMatch(/^[A-Za-z .'-]+$/);
      expect(p.department).toBeTruthy();
      expect(p.jobTitle).toBeTruthy();
      expect(p.mobilePhone).toMatch(/^\+66 81 555 \d{4}$/);
    }
    expect(new Set(people.map((p) => p.mobilePhone)).size).toBe(people.length);
    expect(new Set(people.map((p) => p.email)).size).toBe(people.length);
  });

  it('include the named people', () => {
    expect(personByEmail('admin@btalk.test')?.role).toBe('admin');
    expect(personByEmail('somchai@btalk.test')).toMatchObject({
      displayName: 'Somchai Jaidee',
      displayNameTh: 'สมชาย ใจดี',
    });
    expect(personByEmail('malee@btalk.test')).toMatchObject({
      displayName: 'Malee Srisuk',
      displayNameTh: 'มาลี ศรีสุข',
    });
  });

  it('form one tree, with a manager chain at least 4 levels deep', () => {
    const roots = people.filter((p) => p.managerId === null);
    expect(roots).toHaveLength(1);
    let deepest = 0;
    for (const p of people) {
      let depth = 1;
      let at = p;
      const seen = new Set([p.id]);
      while (at.managerId) {
        const manager = personById(at.managerId);
        expect(manager, `${at.email}'s manager exists`).toBeTruthy();
        if (!manager) break;
        expect(seen.has(manager.id), 'no cycles').toBe(false);
        seen.add(manager.id);
        at = manager;
        depth += 1;
      }
      deepest = Math.max(deepest, depth);
    }
    expect(deepest).toBeGreaterThanOrEqual(4);
  });
});

describeEachDatabase('syncing the development directory into users', (kind) => {
  const server = useListeningTestServer(kind);

  it('creates every person with their manager, and running it again changes nothing', async () => {
    expect((await syncDevelopmentPeople(server.ctx)).listed).toBe(people.length);
    await syncDevelopmentPeople(server.ctx);
    const rows = await server.ctx.db.kysely.selectFrom('users').selectAll().execute();
    expect(rows).toHaveLength(people.length);
    const somchai = rows.find((r) => r.email === 'somchai@btalk.test');
    expect(somchai).toMatchObject({
      issuer: `${server.url}/directory`,
      display_name: 'สมชาย ใจดี',
      manager_subject: personByEmail('malee@btalk.test')?.id,
    });
    expect(rows.find((r) => r.email === 'admin@btalk.test')?.role).toBe('admin');
  });

  it('is the same person as the one who signs in later', async () => {
    const { callback, browser } = await directorySignIn(server, 'anong@btalk.test');
    const res = await postCode(server, browser, callback);
    const { data } = (await res.json()) as Json;
    const synced = await server.ctx.db.kysely
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'anong@btalk.test')
      .execute();
    expect(synced).toEqual([{ id: data.user.id }]);
  });
});

describeEachDatabase('the development directory behind a TLS-terminating proxy (TRUST_PROXY)', (kind) => {
  const server = useListeningTestServer(kind, { TRUST_PROXY: 'loopback' });

  it("sends the person back to the authorization at the proxy's https address once signed in", async () => {
    const browser = new CookieBrowser();
    const forwarded = { 'x-forwarded-proto': 'https' };
    const aad = await browserApi(server, browser, '/api/auth/aad');
    const { url } = ((await aad.json()) as Json).data as { url: string };
    const authorize = await browser.fetch(url, { headers: forwarded });
    const interaction = new URL(authorize.headers.get('location') ?? '', url);
    const page = await browser.fetch(interaction.href, { headers: forwarded });
    const action = /<form[^>]*action="([^"]+)"/.exec(await page.text())?.[1] ?? '';
    const posted = await browser.fetch(new URL(action.replace(/&#47;/g, '/'), interaction).href, {
      method: 'POST',
      headers: { ...forwarded, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: 'malee@btalk.test', password: 'btalk' }).toString(),
    });
    const resume = new URL(posted.headers.get('location') ?? '', interaction);
    expect(resume.protocol).toBe('https:');
    expect(resume.pathname).toMatch(/^\/directory\/auth\//);
  });
});

describeEachDatabase('the development Graph subset', (kind) => {
  const server = useListeningTestServer(kind);
  let token = '';
  const graph = async (s: ListeningTestServer, path: string, bearer = token) => {
    const res = await fetch(`${s.url}/directory/graph/v1.0${path}`, {
      headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
    });
    const type = res.headers.get('content-type') ?? '';
    return {
      status: res.status,
      type,
      body: type.includes('json') ? ((await res.json()) as Json) : await res.text(),
    };
  };

  it('requires a Graph token of the directory', async () => {
    const { callback, browser } = await directorySignIn(server, 'malee@btalk.test');
    const res = await postCode(server, browser, callback);
    const data = ((await res.json()) as Json).data;
    token = data.aadAccessToken;
    expect((await graph(server, '/me', '')).status).toBe(401);
    const product = await graph(server, '/me', data.accessToken);
    expect(product.status).toBe(401);
    expect((product.body as Json).error.code).toBe('InvalidAuthenticationToken');
    expect((await graph(server, '/me', `${token}x`)).status).toBe(401);
  });

  it("lists every person with their manager to BTalk's app token, page by page, as Entra ID's Graph does", async () => {
    // BTalk's own listing: client credentials, then /users with $expand=manager, following nextLink.
    const listing = await server.ctx.directory.listPeople('tenant-1');
    expect(listing?.complete).toBe(true);
    const listed = listing?.people ?? [];
    expect(listed).toHaveLength(people.length);
    const somchai = personByEmail('somchai@btalk.test');
    expect(listed.find((p) => p.email === 'somchai@btalk.test')).toEqual({
      subject: somchai?.id,
      tenantId: 'tenant-1',
      email: 'somchai@btalk.test',
      displayName: 'สมชาย ใจดี',
      givenName: 'Somchai',
      surname: 'Jaidee',
      department: 'Operations',
      jobTitle: 'Operations Manager',
      phone: somchai?.mobilePhone,
      managerSubject: personByEmail('malee@btalk.test')?.id,
      locale: 'th',
      admin: false,
      enabled: true,
    });
    expect(listed.filter((p) => p.admin).map((p) => p.email)).toEqual(['admin@btalk.test']);
    expect(listed.filter((p) => p.managerSubject === null).map((p) => p.email)).toEqual([
      'prasert@btalk.test',
    ]);

    // The app token itself: it lists people in pages of $top, but it is nobody, so /me is not found.
    const { token_endpoint } = (await (
      await fetch(`${server.url}/directory/.well-known/openid-configuration`)
    ).json()) as Json;
    const { clientId } = server.ctx.config.directory;
    const grant = await fetch(token_endpoint, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${clientId}:${server.ctx.directory.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    expect(grant.status).toBe(200);
    const app = ((await grant.json()) as Json).access_token as string;
    expect((await graph(server, '/me', app)).status).toBe(404);
    const emails: string[] = [];
    let next: string | undefined = `${server.url}/directory/graph/v1.0/users?$top=10`;
    while (next) {
      const page = (await graph(server, next.slice(`${server.url}/directory/graph/v1.0`.length), app))
        .body as Json;
      expect(page.value.length).toBeLessThanOrEqual(10);
      emails.push(...page.value.map((u: Json) => u.mail));
      next = page['@odata.nextLink'];
    }
    expect(emails).toEqual(people.map((p) => p.email));
  });

  it('answers /me, a user, their manager and direct reports', async () => {
    const me = (await graph(server, '/me')).body as Json;
    expect(me).toMatchObject({
      mail: 'malee@btalk.test',
      displayName: 'มาลี ศรีสุข',
      jobTitle: 'Director of Operations',
      mobilePhone: personByEmail('malee@btalk.test')?.mobilePhone,
    });
    const somchai = personByEmail('somchai@btalk.test');
    const user = (await graph(server, `/users/${somchai?.id}`)).body as Json;
    expect(user).toMatchObject({ displayName: 'สมชาย ใจดี', department: 'Operations' });
    const manager = (await graph(server, `/users/${somchai?.id}/manager`)).body as Json;
    expect(manager.id).toBe(me.id);
    const reports = (await graph(server, '/me/directReports')).body as Json;
    expect(reports.value.map((r: Json) => r.mail)).toContain('somchai@btalk.test');
    const top = personByEmail('prasert@btalk.test');
    expect((await graph(server, `/users/${top?.id}/manager`)).status).toBe(404);
    expect((await graph(server, '/users/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('searches and filters users by name, and pages with $top', async () => {
    const search = (await graph(server, `/users?$search=${encodeURIComponent('"displayName:สมชาย"')}`))
      .body as Json;
    expect(search.value.map((u: Json) => u.mail)).toEqual(['somchai@btalk.test']);
    const english = (await graph(server, '/users?$search=%22displayName:jaidee%22')).body as Json;
    expect(english.value.map((u: Json) => u.mail)).toEqual(['somchai@btalk.test']);
    const filter = (
      await graph(server, `/users?$filter=${encodeURIComponent("startswith(displayName,'Mal')")}`)
    ).body as Json;
    expect(filter.value.map((u: Json) => u.mail)).toEqual(['malee@btalk.test']);
    const top = (await graph(server, '/users?$top=5')).body as Json;
    expect(top.value).toHaveLength(5);
    expect((await graph(server, '/users?$top=0')).status).toBe(400);
    expect((await graph(server, '/users?$filter=nonsense')).status).toBe(400);
  });

  it('serves a generated photo', async () => {
    const photo = await graph(server, '/me/photo/$value');
    expect(photo.status).toBe(200);
    expect(photo.type).toContain('image/svg+xml');
    expect(photo.body).toContain('>MS<');
  });

  it('publishes OpenID Connect discovery under its issuer', async () => {
    const res = await fetch(`${server.url}/directory/.well-known/openid-configuration`);
    const meta = (await res.json()) as Json;
    expect(meta.issuer).toBe(`${server.url}/directory`);
    expect(meta.code_challenge_methods_supported).toContain('S256');
    expect(meta.grant_types_supported).toContain('urn:ietf:params:oauth:grant-type:jwt-bearer');
  });
});
