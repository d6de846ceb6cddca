import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Duplex } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { request } from '@playwright/test';
import { DIRECTORY_PASSWORD } from './directory.ts';
import { freePort, startServer } from './server.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The development directory's public client that stands in for Microsoft Teams (directory/provider.ts). */
const TEAMS_DEVELOPMENT_CLIENT_ID = 'teams-development';
/** BTalk's own client at the development directory (config DEVELOPMENT_CLIENT_ID). */
const BTALK_DEVELOPMENT_CLIENT_ID = 'btalk-web';

/** A self-signed certificate for 127.0.0.1, made with openssl for one run, and its folder. */
interface LoopbackCertificate {
  key: string;
  cert: string;
  /** The certificate's file: the BTalk server trusts it (NODE_EXTRA_CA_CERTS) to call itself. */
  certPath: string;
  dir: string;
}

function loopbackCertificate(): LoopbackCertificate {
  const dir = mkdtempSync(path.join(tmpdir(), 'btalk-teams-tls-'));
  const keyPath = path.join(dir, 'key.pem');
  const certPath = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      keyPath,
      '-out',
      certPath,
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(keyPath, 'utf8'), cert: readFileSync(certPath, 'utf8'), certPath, dir };
}

async function listen(server: Server, port = 0): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('no port');
  return address.port;
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

const FILES: Record<string, { file: string; type: string }> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/host.js': { file: 'host.js', type: 'text/javascript; charset=utf-8' },
};

/** The local Teams host page (e2e/teams-host/: the page and its host script) over HTTPS. */
function teamsHostServer(tls: LoopbackCertificate): Server {
  return createHttpsServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const entry = FILES[new URL(req.url ?? '/', 'https://host').pathname];
    if (!entry || req.method !== 'GET') {
      res.writeHead(404).end();
      return;
    }
    res
      .writeHead(200, { 'content-type': entry.type, 'cache-control': 'no-store' })
      .end(readFileSync(path.join(here, 'teams-host', entry.file)));
  });
}

/**
 * What the Teams tab's browser tests run against: a BTalk server reached over HTTPS (Teams shows
 * only https tabs, and teams-js opens only an https authentication page) through a TLS-terminating
 * proxy to its loopback port, with TEAMS_TAB_TEST_HOSTS naming the local Teams host page, also over HTTPS
 * (an http host is another site, and Chromium gives a tab framed by another site no storage).
 * The certificate is self-signed: the browser context ignores HTTPS errors.
 */
export interface TeamsStandIns {
  /** BTalk's https address (its PUBLIC_URL). */
  baseURL: string;
  /** The Teams host page's origin. */
  hostOrigin: string;
  /** The server's DATA_DIR. */
  dataDir: string;
  stop(): Promise<void>;
}

export async function startTeamsStandIns(): Promise<TeamsStandIns> {
  const tls = loopbackCertificate();
  const host = teamsHostServer(tls);
  const hostOrigin = `https://127.0.0.1:${await listen(host)}`;
  const proxyPort = await freePort();
  const baseURL = `https://127.0.0.1:${proxyPort}`;
  const server = await startServer({
    PUBLIC_URL: baseURL,
    TRUST_PROXY: 'loopback',
    TEAMS_TAB_TEST_HOSTS: hostOrigin,
    // The server reads its own development directory (discovery, keys, tokens) at PUBLIC_URL.
    NODE_EXTRA_CA_CERTS: tls.certPath,
  });
  const upstreamPort = Number(new URL(server.url).port);
  const sockets = new Set<Duplex>();
  const keep = (...streams: Duplex[]) => {
    for (const s of streams) {
      sockets.add(s);
      s.once('close', () => sockets.delete(s));
      s.on('error', () => {
        for (const other of streams) other.destroy();
      });
    }
  };
  // TLS ends here; BTalk trusts this proxy's X-Forwarded-Proto (TRUST_PROXY=loopback), as behind
  // a production reverse proxy. WebSocket upgrades (realtime) pass through as raw streams.
  const proxy = createHttpsServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const upstream = httpRequest(
      {
        host: '127.0.0.1',
        port: upstreamPort,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, 'x-forwarded-proto': 'https' },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  proxy.on('upgrade', (req, socket, head) => {
    const upstream = connect(upstreamPort, '127.0.0.1', () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`, 'X-Forwarded-Proto: https'];
      for (let i = 0; i < req.rawHeaders.length; i += 2)
        lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      upstream.write(head);
      socket.pipe(upstream).pipe(socket);
    });
    keep(socket, upstream);
  });
  await listen(proxy, proxyPort);
  return {
    baseURL,
    hostOrigin,
    dataDir: server.dataDir,
    async stop() {
      for (const s of sockets) s.destroy();
      host.closeAllConnections();
      proxy.closeAllConnections();
      await Promise.all([close(proxy), close(host)]);
      await server.stop();
      rmSync(tls.dir, { recursive: true, force: true });
    },
  };
}

/** The host page framing `${baseURL}/teamtab`, with Teams' context as `context` says. */
export function teamsHostUrl(
  standIns: TeamsStandIns,
  context: { theme?: string; locale?: string; subEntityId?: string; answer?: 'none' } = {},
): string {
  const url = new URL(`${standIns.hostOrigin}/`);
  url.searchParams.set('tab', `${standIns.baseURL}/teamtab`);
  for (const [key, value] of Object.entries(context)) url.searchParams.set(key, value);
  return url.href;
}

/**
 * A Teams-style single sign-on token from the development directory, what Teams' `getAuthToken()`
 * hands a tab: signs in on the directory's form as the Teams stand-in client (public, PKCE) and
 * redeems the code for a token of BTalk's API audience. As apps/server/src/test/teams.ts does.
 */
export async function teamsSsoToken(baseURL: string, email: string): Promise<string> {
  const issuer = `${baseURL}/directory`;
  const apiAudience = `api://${new URL(baseURL).host}/${BTALK_DEVELOPMENT_CLIENT_ID}`;
  const redirectUri = `${baseURL}/teamtab`;
  const verifier = randomBytes(32).toString('base64url');
  // Its own cookies, redirects followed by hand up to the redirect URI.
  const browser = await request.newContext({ ignoreHTTPSErrors: true, maxRedirects: 0 });
  try {
    const follow = async (from: string) => {
      let next = new URL(from);
      for (let hops = 0; hops < 10; hops += 1) {
        if (next.href.startsWith(redirectUri)) return { url: next, html: '' };
        const res = await browser.get(next.href, { maxRedirects: 0 });
        const location = res.headers().location;
        if (res.status() < 300 || res.status() >= 400 || !location)
          return { url: next, html: await res.text() };
        next = new URL(location, next);
      }
      throw new Error(`too many redirects from ${from}`);
    };
    const authorize = new URL(`${issuer}/auth`);
    authorize.search = new URLSearchParams({
      client_id: TEAMS_DEVELOPMENT_CLIENT_ID,
      response_type: 'code',
      redirect_uri: redirectUri,
      scope: 'openid',
      resource: apiAudience,
      state: randomBytes(8).toString('hex'),
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    }).toString();
    const page = await follow(authorize.href);
    const action = /<form[^>]*action="([^"]+)"/.exec(page.html)?.[1];
    if (!action) throw new Error(`no sign-in form: ${page.html.slice(0, 300)}`);
    const posted = await browser.post(new URL(action.replace(/&#47;/g, '/'), page.url).href, {
      form: { email, password: DIRECTORY_PASSWORD },
      maxRedirects: 0,
    });
    const back = await follow(new URL(posted.headers().location ?? '', page.url).href);
    const code = back.url.searchParams.get('code');
    if (!code) throw new Error(`no code at ${back.url.href}`);
    const token = await browser.post(`${issuer}/token`, {
      form: {
        grant_type: 'authorization_code',
        client_id: TEAMS_DEVELOPMENT_CLIENT_ID,
        code,
        redirect_uri: redirectUri,
        code_verifier: verifier,
        resource: apiAudience,
      },
    });
    const body = (await token.json()) as { access_token?: string };
    if (!body.access_token) throw new Error(`no token: ${JSON.stringify(body)}`);
    return body.access_token;
  } finally {
    await browser.dispose();
  }
}

/**
 * Forgets that a development directory person consented to BTalk's Graph permissions (the
 * directory's `GraphConsent` record, apps/server/src/directory/consents.ts), so that a consent
 * test starts from a person who has not consented, also on a retry against the same server.
 */
export function forgetDirectoryConsent(dataDir: string, email: string): void {
  const people = JSON.parse(
    readFileSync(path.join(here, '../apps/server/src/directory/people.json'), 'utf8'),
  ) as Array<{ id: string; email: string }>;
  const person = people.find((p) => p.email === email);
  if (!person) throw new Error(`no person ${email} in the development directory`);
  const db = new DatabaseSync(path.join(dataDir, 'btalk.sqlite'));
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    db.prepare("DELETE FROM directory_records WHERE model = 'GraphConsent' AND id = ?").run(
      `${BTALK_DEVELOPMENT_CLIENT_ID}:${person.id}`,
    );
  } finally {
    db.close();
  }
}
