import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ErrorCode, SIGN_IN_BROWSER_FIELD } from '@btalk/contracts';
import fastifyWebsocket from '@fastify/websocket';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { decodeJwt, importJWK, SignJWT } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../auth/seal.ts';
import { personByEmail } from '../../directory/people.ts';
import { registerRateLimits } from '../../http/rateLimits.ts';
import { describeEachDatabase } from '../../test/db.ts';
import {
  browserApi,
  type Callback,
  CookieBrowser,
  callbackParams,
  directorySignIn,
  type ListeningTestServer,
  postCode,
  useListeningTestServer,
} from '../../test/listening.ts';
import { teamsToken } from '../../test/teams.ts';
import { apiRoutes } from '../index.ts';

// biome-ignore lint/suspicious/noExplicitAny: tests read JSON answers loosely, as inject().json() does.
type Json = Record<string, any>;

async function call(server: ListeningTestServer, method: string, url: string, body?: unknown, headers = {}) {
  const res = await server.api(url, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

/** `POST /api/auth/code` from `browser`, answered as status and JSON. */
async function exchange(server: ListeningTestServer, browser: CookieBrowser, body: unknown) {
  const res = await postCode(server, browser, body);
  return { status: res.status, body: (await res.json()) as Json };
}

async function signIn(server: ListeningTestServer, email: string) {
  const { callback, browser } = await directorySignIn(server, email);
  const res = await exchange(server, browser, callback);
  expect(res.status).toBe(200);
  return res.body.data as { accessToken: string; refreshToken: string; aadAccessToken: string; user: Json };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describeEachDatabase('sign-in: GET /api/auth/aad and POST /api/auth/code', (kind) => {
  const server = useListeningTestServer(kind);

  it('requires the client key', async () => {
    const res = await server.api('/api/auth/aad', { headers: { 'x-api-key': '' } });
    expect(res.status).toBe(401);
    expect(((await res.json()) as Json).code).toBe(ErrorCode.badApiKey);
  });

  it('answers the authorization URL with state, nonce and an S256 PKCE challenge, and keeps the attempt', async () => {
    const res = await call(server, 'GET', '/api/auth/aad');
    expect(res.status).toBe(200);
    const { url, state, redirectUri, signInMode } = res.body.data;
    const params = new URL(url).searchParams;
    expect(url.startsWith(`${server.url}/directory/auth?`)).toBe(true);
    expect(params.get('state')).toBe(state);
    expect(params.get('nonce')).toBeTruthy();
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(params.get('redirect_uri')).toBe(`${server.url}/aad/callback`);
    expect(redirectUri).toBe(`${server.url}/aad/callback`);
    expect(signInMode).toBe('redirect');
    const attempt = await server.ctx.db.kysely
      .selectFrom('sign_in_attempts')
      .selectAll()
      .where('state', '=', state)
      .executeTakeFirstOrThrow();
    expect(attempt.nonce).toBe(params.get('nonce'));
    expect(url).not.toContain(attempt.code_verifier);
  });

  it('gives the browser one sign-in cookie, kept across attempts, and keeps only its hash with each attempt', async () => {
    const browser = new CookieBrowser();
    const first = await browserApi(server, browser, '/api/auth/aad');
    const [set] = first.headers.getSetCookie();
    // Over http (this test server) the __Host- prefix is not allowed; signInBrowser.test.ts covers https.
    expect(set).toMatch(/^btalk-signin=[\w-]{43}; Path=\/; Max-Age=600; HttpOnly; SameSite=Lax$/);
    expect(first.headers.get('cache-control')).toBe('no-store');
    const value = set?.split(';')[0]?.split('=')[1] ?? '';
    const second = await browserApi(server, browser, '/api/auth/aad');
    expect(second.headers.getSetCookie()[0]?.split(';')[0]).toBe(`btalk-signin=${value}`);
    const states = [first, second].map(async (res) => ((await res.json()) as Json).data.state as string);
    const rows = await server.ctx.db.kysely
      .selectFrom('sign_in_attempts')
      .select('browser_hash')
      .where('state', 'in', await Promise.all(states))
      .execute();
    expect(rows).toEqual([{ browser_hash: hashToken(value) }, { browser_hash: hashToken(value) }]);
    // Another browser gets a value of its own.
    const other = await call(server, 'GET', '/api/auth/aad');
    expect(other.status).toBe(200);
  });

  it('refuses a redirect URI that is not exactly the configured one', async () => {
    const res = await call(
      server,
      'GET',
      `/api/auth/aad?redirectUri=${encodeURIComponent(`${server.url}/aad/callback/`)}`,
    );
    expect(res.status).toBe(400);
    expect(res.body.details[0].field).toBe('query.redirectUri');
  });

  it('asks the directory to let the person choose the account with prompt=select_account, and refuses other prompts', async () => {
    const plain = await call(server, 'GET', '/api/auth/aad');
    expect(new URL(plain.body.data.url).searchParams.has('prompt')).toBe(false);
    const choose = await call(server, 'GET', '/api/auth/aad?prompt=select_account');
    expect(choose.status).toBe(200);
    expect(new URL(choose.body.data.url).searchParams.get('prompt')).toBe('select_account');
    const other = await call(server, 'GET', '/api/auth/aad?prompt=none');
    expect(other.status).toBe(400);
    expect(other.body.details[0].field).toBe('query.prompt');
  });

  it('after a sign-out, select_account shows the directory form to a browser it knows, so another person signs in', async () => {
    const { callback, browser } = await directorySignIn(server, 'somchai@btalk.test');
    expect((await exchange(server, browser, callback)).status).toBe(200);
    const redirectUri = `${server.url}/aad/callback`;
    // Without the prompt the directory signs the person it knows straight back in, with no form.
    const again = await (await browserApi(server, browser, '/api/auth/aad')).json();
    expect((await browser.follow((again as Json).data.url, redirectUri)).response).toBeNull();
    // With it, the form: someone else signs in from the same browser.
    const { callback: malee } = await directorySignIn(
      server,
      'malee@btalk.test',
      'btalk',
      browser,
      '/api/auth/aad?prompt=select_account',
    );
    const res = await exchange(server, browser, malee);
    expect(res.status).toBe(200);
    expect(res.body.data.user.email).toBe('malee@btalk.test');
  });

  it('signs a person in through the directory and creates them from the ID token and Graph', async () => {
    const session = await signIn(server, 'somchai@btalk.test');
    const somchai = personByEmail('somchai@btalk.test');
    const malee = personByEmail('malee@btalk.test');
    expect(session.user).toMatchObject({
      email: 'somchai@btalk.test',
      displayName: 'สมชาย ใจดี',
      department: 'Operations',
      jobTitle: 'Operations Manager',
      locale: 'th',
      role: 'member',
    });
    const row = await server.ctx.db.kysely
      .selectFrom('users')
      .selectAll()
      .where('id', '=', session.user.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      issuer: `${server.url}/directory`,
      subject: somchai?.id,
      manager_subject: malee?.id,
      tenant_id: expect.any(String),
      phone: somchai?.mobilePhone,
    });
    // The product token works on the API; the directory token works on Graph.
    const me = await call(server, 'GET', '/api/me', undefined, bearer(session.accessToken));
    expect(me.body.data.id).toBe(session.user.id);
    const graph = await fetch(`${server.url}/directory/graph/v1.0/me`, {
      headers: bearer(session.aadAccessToken),
    });
    expect(((await graph.json()) as Json).mail).toBe('somchai@btalk.test');
    // The refresh token is opaque and only its hash is stored.
    expect(session.refreshToken.split('.')).toHaveLength(1);
    const stored = await server.ctx.db.kysely
      .selectFrom('refresh_tokens')
      .select('token_hash')
      .where('token_hash', '=', hashToken(session.refreshToken))
      .executeTakeFirst();
    expect(stored).toBeTruthy();
    const anywhere = JSON.stringify(await server.ctx.db.kysely.selectFrom('sessions').selectAll().execute());
    expect(anywhere).not.toContain(session.aadAccessToken);
  });

  it('keys people by issuer and subject: signing in again updates the same person', async () => {
    const first = await signIn(server, 'malee@btalk.test');
    const second = await signIn(server, 'MALEE@btalk.test');
    expect(second.user.id).toBe(first.user.id);
    const count = await server.ctx.db.kysely
      .selectFrom('users')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('email', '=', 'malee@btalk.test')
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });

  it("makes the directory's admins admins", async () => {
    const session = await signIn(server, 'admin@btalk.test');
    expect(session.user.role).toBe('admin');
  });

  it('uses each sign-in attempt once', async () => {
    const { callback, browser } = await directorySignIn(server, 'suda@btalk.test');
    expect((await exchange(server, browser, callback)).status).toBe(200);
    const again = await exchange(server, browser, callback);
    expect(again.status).toBe(400);
    expect(again.body.details[0].field).toBe('body.state');
  });

  it('refuses a code that does not belong to the attempt, and then the attempt is gone', async () => {
    const { callback, browser } = await directorySignIn(server, 'niran@btalk.test');
    const tampered = await exchange(server, browser, { ...callback, code: `${callback.code}x` });
    expect(tampered.status).toBe(401);
    expect(tampered.body.code).toBe(ErrorCode.unauthenticated);
    expect((await exchange(server, browser, callback)).status).toBe(400);
  });

  it('refuses a callback whose state this server never issued', async () => {
    const { callback, browser } = await directorySignIn(server, 'arthit@btalk.test');
    const res = await exchange(server, browser, { ...callback, state: 'made-up-state' });
    expect(res.status).toBe(400);
    expect(res.body.details[0].field).toBe('body.state');
  });

  it('completes a sign-in only in the browser that started it: a callback link made elsewhere signs nobody in', async () => {
    // The attacker signs in as themselves in browser A and stops at the callback...
    const { callback, browser: attackers } = await directorySignIn(server, 'boonsri@btalk.test');
    const sessions = async () =>
      Number(
        (
          await server.ctx.db.kysely
            .selectFrom('sessions')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await sessions();
    // ...and the link is opened in the victim's browser B: without a sign-in cookie,
    const bare = await exchange(server, new CookieBrowser(), callback);
    expect(bare.status).toBe(400);
    expect(bare.body.code).toBe(ErrorCode.validation);
    expect(bare.body.details[0].field).toBe(SIGN_IN_BROWSER_FIELD);
    expect(bare.body.details[0].reason).toContain('has no btalk-signin cookie');
    expect(bare.body.message).toContain('Start signing in again from this browser');
    // or with B's own (B has signed in before), or with a made-up one.
    const victims = new CookieBrowser();
    expect((await browserApi(server, victims, '/api/auth/aad')).status).toBe(200);
    const other = await exchange(server, victims, callback);
    expect(other.status).toBe(400);
    expect(other.body.details[0]).toMatchObject({ field: SIGN_IN_BROWSER_FIELD });
    expect(other.body.details[0].reason).toContain('another browser');
    const madeUp = await server.api('/api/auth/code', {
      method: 'POST',
      headers: { cookie: `btalk-signin=${'A'.repeat(43)}` },
      body: JSON.stringify(callback),
    });
    expect(madeUp.status).toBe(400);
    expect(await sessions()).toBe(before);
    // The refusals spent nothing: the browser that started the attempt still completes it, once.
    const mine = await exchange(server, attackers, callback);
    expect(mine.status).toBe(200);
    expect(mine.body.data.user.email).toBe('boonsri@btalk.test');
    expect(await sessions()).toBe(before + 1);
    expect((await exchange(server, attackers, callback)).body.details[0].field).toBe('body.state');
  });

  it('completes two sign-ins started at once in one browser (two tabs), in either order', async () => {
    const browser = new CookieBrowser();
    const start = async () => {
      const res = await browserApi(server, browser, '/api/auth/aad');
      return ((await res.json()) as Json).data.url as string;
    };
    const [first, second] = [await start(), await start()];
    const redirectUri = server.ctx.config.directory.redirectUri;
    // The first tab meets the directory's form; the second finds the directory session and comes
    // straight back.
    const page = await browser.follow(first, redirectUri);
    const action = /<form[^>]*action="([^"]+)"/.exec((await page.response?.text()) ?? '')?.[1] ?? '';
    const posted = await browser.fetch(new URL(action.replace(/&#47;/g, '/'), page.url).href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: 'yupa@btalk.test', password: 'btalk' }).toString(),
    });
    const firstBack = await browser.follow(
      new URL(posted.headers.get('location') ?? '', page.url).href,
      redirectUri,
    );
    const secondBack = await browser.follow(second, redirectUri);
    const callbacks: Callback[] = [callbackParams(firstBack.url), callbackParams(secondBack.url)];
    const later = await exchange(server, browser, callbacks[1]);
    const earlier = await exchange(server, browser, callbacks[0]);
    expect([later.status, earlier.status]).toEqual([200, 200]);
    expect(later.body.data.user.id).toBe(earlier.body.data.user.id);
  });

  it('names the missing field of bad input', async () => {
    const res = await call(server, 'POST', '/api/auth/code', { state: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(ErrorCode.validation);
    expect(res.body.details[0].field).toBe('body.code');
  });

  it('shows the sign-in form again after a wrong password', async () => {
    const aad = await call(server, 'GET', '/api/auth/aad');
    const browser = new CookieBrowser();
    const page = await browser.follow(aad.body.data.url, `${server.url}/aad/callback`);
    const html = (await page.response?.text()) ?? '';
    expect(html).toContain('<label for="email">Email</label>');
    expect(html).toContain('<label for="password">Password</label>');
    expect(html).toContain('>Sign in</button>');
    expect(html).toContain('#472F92');
    const action = /action="([^"]+)"/.exec(html)?.[1] ?? '';
    const wrong = await browser.fetch(new URL(action.replace(/&#47;/g, '/'), page.url).href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=somchai%40btalk.test&password=wrong',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('location')).toBeNull();
    expect(await wrong.text()).toContain('Wrong email or password');
  });

  it('refuses a disabled person', async () => {
    await signIn(server, 'kittisak@btalk.test');
    await server.ctx.db.kysely
      .updateTable('users')
      .set({ disabled: 1 })
      .where('email', '=', 'kittisak@btalk.test')
      .execute();
    const { callback, browser } = await directorySignIn(server, 'kittisak@btalk.test');
    const res = await exchange(server, browser, callback);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(ErrorCode.forbidden);
  });
});

describeEachDatabase('sessions: POST /api/auth/refresh and POST /api/auth/logout', (kind) => {
  const server = useListeningTestServer(kind);
  const refresh = (refreshToken: string, redirectUri = `${server.url}/aad/callback`) =>
    call(server, 'POST', '/api/auth/refresh', { refreshToken, redirectUri });

  it('rotates the refresh token and answers a new access token and directory token', async () => {
    const session = await signIn(server, 'jintana@btalk.test');
    const res = await refresh(session.refreshToken);
    expect(res.status).toBe(200);
    const { accessToken, aadAccessToken, refreshToken } = res.body.data;
    expect(refreshToken).not.toBe(session.refreshToken);
    expect(decodeJwt(accessToken).sid).toBe(decodeJwt(session.accessToken).sid);
    expect(aadAccessToken).toBeTruthy();
    expect((await call(server, 'GET', '/api/me', undefined, bearer(accessToken))).status).toBe(200);
    expect((await refresh(refreshToken)).status).toBe(200);
  });

  it('answers the same new pair to the previous token within the grace window (two tabs)', async () => {
    const session = await signIn(server, 'wanida@btalk.test');
    const [a, b] = await Promise.all([refresh(session.refreshToken), refresh(session.refreshToken)]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.body.data).toEqual(a.body.data);
    const late = await refresh(session.refreshToken);
    expect(late.body.data).toEqual(a.body.data);
    expect((await refresh(a.body.data.refreshToken)).status).toBe(200);
  });

  it('ends the whole session when a rotated token is presented after the grace window', async () => {
    const session = await signIn(server, 'ploy@btalk.test');
    const next = (await refresh(session.refreshToken)).body.data;
    await server.ctx.db.kysely
      .updateTable('refresh_tokens')
      .set({ rotated_at: new Date(Date.now() - 60_000).toISOString() })
      .where('token_hash', '=', hashToken(session.refreshToken))
      .execute();
    const reuse = await refresh(session.refreshToken);
    expect(reuse.status).toBe(401);
    expect(reuse.body.message).toContain('already used');
    // The thief's (or the owner's) newer token is dead too: the family is revoked.
    const newer = await refresh(next.refreshToken);
    expect(newer.status).toBe(401);
    const row = await server.ctx.db.kysely
      .selectFrom('sessions')
      .select(['revoked_at', 'revoked_reason'])
      .where('id', '=', String(decodeJwt(session.accessToken).sid))
      .executeTakeFirstOrThrow();
    expect(row.revoked_reason).toBe('rotated refresh token reused');
    // Its access tokens die with it, the latest one included: refused over HTTP and the socket.
    for (const token of [session.accessToken, next.accessToken]) {
      const me = await call(server, 'GET', '/api/me', undefined, bearer(token));
      expect(me.status).toBe(401);
      expect(me.body.message).toContain('session has ended');
    }
  });

  it('ends the session when a token two rotations old comes back, even within the grace window', async () => {
    const session = await signIn(server, 'chatchai@btalk.test');
    const second = (await refresh(session.refreshToken)).body.data;
    expect((await refresh(second.refreshToken)).status).toBe(200);
    expect((await refresh(session.refreshToken)).status).toBe(401);
  });

  it('refuses unknown, tampered and expired refresh tokens', async () => {
    expect((await refresh('not-a-token')).status).toBe(401);
    const session = await signIn(server, 'orapin@btalk.test');
    expect((await refresh(`${session.refreshToken.slice(0, -2)}AA`)).status).toBe(401);
    await server.ctx.db.kysely
      .updateTable('refresh_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('token_hash', '=', hashToken(session.refreshToken))
      .execute();
    const expired = await refresh(session.refreshToken);
    expect(expired.status).toBe(401);
    expect(expired.body.message).toContain('expired');
  });

  it('renews the directory token with the directory refresh token kept on the server', async () => {
    const session = await signIn(server, 'krit@btalk.test');
    await server.ctx.db.kysely
      .updateTable('sessions')
      .set({ directory_access_expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', String(decodeJwt(session.accessToken).sid))
      .execute();
    const res = await refresh(session.refreshToken);
    expect(res.status).toBe(200);
    expect(res.body.data.aadAccessToken).not.toBe(session.aadAccessToken);
    const graph = await fetch(`${server.url}/directory/graph/v1.0/me`, {
      headers: bearer(res.body.data.aadAccessToken),
    });
    expect(graph.status).toBe(200);
  });

  it('refuses bad input, naming the field', async () => {
    const missing = await call(server, 'POST', '/api/auth/refresh', {
      redirectUri: `${server.url}/aad/callback`,
    });
    expect(missing.status).toBe(400);
    expect(missing.body.details[0].field).toBe('body.refreshToken');
    const wrongUri = await refresh('whatever', 'https://evil.example/aad/callback');
    expect(wrongUri.status).toBe(400);
    expect(wrongUri.body.details[0].field).toBe('body.redirectUri');
  });

  it('ends the sessions of a disabled person at once', async () => {
    const session = await signIn(server, 'mayuree@btalk.test');
    await server.ctx.db.kysely
      .updateTable('users')
      .set({ disabled: 1, tokens_valid_after: new Date().toISOString() })
      .where('id', '=', session.user.id)
      .execute();
    expect((await call(server, 'GET', '/api/me', undefined, bearer(session.accessToken))).status).toBe(401);
    expect((await refresh(session.refreshToken)).status).toBe(401);
  });

  it('requires a session to sign out', async () => {
    const res = await call(server, 'POST', '/api/auth/logout');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(ErrorCode.unauthenticated);
  });

  it('signs out: the refresh token family and the access tokens stop working, a new sign-in works', async () => {
    const session = await signIn(server, 'preeya@btalk.test');
    const out = await call(server, 'POST', '/api/auth/logout', {}, bearer(session.accessToken));
    expect(out.status).toBe(200);
    expect(out.body.data).toEqual({ signedOut: true });
    expect((await refresh(session.refreshToken)).status).toBe(401);
    expect((await call(server, 'GET', '/api/me', undefined, bearer(session.accessToken))).status).toBe(401);
    const again = await signIn(server, 'preeya@btalk.test');
    expect((await call(server, 'GET', '/api/me', undefined, bearer(again.accessToken))).status).toBe(200);
  });

  it("does not end another person's session", async () => {
    const mine = await signIn(server, 'john@btalk.test');
    const theirs = await signIn(server, 'daranee@btalk.test');
    expect((await call(server, 'POST', '/api/auth/logout', {}, bearer(theirs.accessToken))).status).toBe(200);
    expect((await call(server, 'GET', '/api/me', undefined, bearer(mine.accessToken))).status).toBe(200);
    expect((await refresh(mine.refreshToken)).status).toBe(200);
  });

  it('answers people who have not accepted the terms only where they need it: sign-out, me, terms, their own call-tree answer', async () => {
    const app = Fastify({ logger: false });
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    const exempt: string[] = [];
    app.addHook('onRoute', (route) => {
      if ((route.config as { termsExempt?: boolean } | undefined)?.termsExempt) {
        for (const method of [route.method].flat())
          if (method !== 'HEAD') exempt.push(`${method} ${route.url}`);
      }
    });
    await app.register(fastifyWebsocket);
    await app.register(
      async (api) => {
        await registerRateLimits(api, server.ctx);
        for (const routes of apiRoutes(server.ctx)) await api.register(routes);
      },
      { prefix: '/api' },
    );
    await app.ready();
    await app.close();
    expect(exempt.sort()).toEqual(
      [
        'POST /api/auth/logout',
        'GET /api/me',
        'GET /api/terms/current',
        'POST /api/terms/acceptances',
        'GET /api/terms/acceptances',
        'POST /api/terms/versions',
        'GET /api/terms/versions',
        // An emergency reaches people before they accept: the banner's list and their own answer.
        'GET /api/calltree/events/pending',
        'POST /api/calltree/events/:eventId/answers',
      ].sort(),
    );
  });
});

describeEachDatabase('Teams single sign-on: POST /api/auth/team', (kind) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'btalk-team-'));
  const server = useListeningTestServer(kind, { DATA_DIR: dataDir });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const team = (token: string) => call(server, 'POST', '/api/auth/team', { token });

  it("signs a person in with the directory's token for BTalk's API, with a Graph token on their behalf", async () => {
    const token = await teamsToken(server, 'somchai@btalk.test');
    expect(decodeJwt(token).aud).toBe(server.ctx.config.directory.apiAudience);
    const res = await team(token);
    expect(res.status).toBe(200);
    expect(res.body.data.user).toMatchObject({ email: 'somchai@btalk.test', displayName: 'สมชาย ใจดี' });
    const graph = await fetch(`${server.url}/directory/graph/v1.0/me`, {
      headers: bearer(res.body.data.aadAccessToken),
    });
    expect(((await graph.json()) as Json).mail).toBe('somchai@btalk.test');
    expect((await call(server, 'GET', '/api/me', undefined, bearer(res.body.data.accessToken))).status).toBe(
      200,
    );
  });

  it('refuses a directory token for another audience (the Graph token)', async () => {
    const session = await signIn(server, 'malee@btalk.test');
    const res = await team(session.aadAccessToken);
    expect(res.status).toBe(401);
    expect(res.body.message).toMatch(/aud/);
  });

  it('refuses a tampered, an expired, an unsigned and a foreign-key token', async () => {
    const token = await teamsToken(server, 'malee@btalk.test');
    const [h, p, s] = token.split('.');
    const claims = JSON.parse(Buffer.from(p ?? '', 'base64url').toString());
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, sub: personByEmail('admin@btalk.test')?.id })).toString('base64url')}.${s}`;
    expect((await team(forged)).status).toBe(401);

    const key = JSON.parse(readFileSync(path.join(dataDir, 'directory-key.json'), 'utf8'));
    const sign = (exp: number, secret: Awaited<ReturnType<typeof importJWK>>) =>
      new SignJWT({ ...claims, exp, iat: exp - 3600 })
        .setProtectedHeader({ alg: 'RS256', kid: key.kid })
        .sign(secret);
    const expired = await team(await sign(Math.floor(Date.now() / 1000) - 60, await importJWK(key, 'RS256')));
    expect(expired.status).toBe(401);
    expect(expired.body.message).toContain('expired');

    const none = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${p}.`;
    expect((await team(none)).status).toBe(401);
    const { generateKeyPair } = await import('jose');
    const other = await generateKeyPair('RS256');
    expect((await team(await sign(Math.floor(Date.now() / 1000) + 600, other.privateKey))).status).toBe(401);
  });

  it('says when the directory needs consent, in its own envelope code', async () => {
    const token = await teamsToken(server, 'newhire@btalk.test');
    const res = await team(token);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(ErrorCode.consentRequired);
    expect(res.body.message).toContain('consent');
  });

  it("remembers the consent given in the consent popup's sign-in: Teams sign-in then works, and stays working", async () => {
    // teamsToken signs in on the directory's form as the Teams client: that is no consent to BTalk.
    const before = await team(await teamsToken(server, 'newhire@btalk.test'));
    expect(before.status).toBe(403);
    expect(before.body.code).toBe(ErrorCode.consentRequired);
    // The consent popup: the directory's own sign-in for BTalk.
    await signIn(server, 'newhire@btalk.test');
    const after = await team(await teamsToken(server, 'newhire@btalk.test'));
    expect(after.status).toBe(200);
    expect(after.body.data.user).toMatchObject({ email: 'newhire@btalk.test' });
    const graph = await fetch(`${server.url}/directory/graph/v1.0/me`, {
      headers: bearer(after.body.data.aadAccessToken),
    });
    expect(((await graph.json()) as Json).mail).toBe('newhire@btalk.test');
    // Asked once: a later Teams sign-in needs no new consent.
    expect((await team(await teamsToken(server, 'newhire@btalk.test'))).status).toBe(200);
  });

  it('names the missing field of bad input', async () => {
    const res = await call(server, 'POST', '/api/auth/team', {});
    expect(res.status).toBe(400);
    expect(res.body.details[0].field).toBe('body.token');
  });
});

describe('rate limits on the sign-in endpoints', () => {
  const server = useListeningTestServer('sqlite', { AUTH_RATE_LIMIT_PER_MINUTE: '3' });

  it('answer 429 in the envelope once an address makes too many requests', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await call(server, 'GET', '/api/auth/aad')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await call(server, 'POST', '/api/auth/refresh', {
      refreshToken: 'x',
      redirectUri: `${server.url}/aad/callback`,
    });
    expect(limited.status).toBe(401);
    const res = await call(server, 'GET', '/api/auth/aad');
    expect(res.status).toBe(429);
    expect(res.body.code).toBe(ErrorCode.rateLimited);
  });
});
