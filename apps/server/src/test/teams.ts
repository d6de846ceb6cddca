import { createHash, randomBytes } from 'node:crypto';
import { TEAMS_DEVELOPMENT_CLIENT_ID } from '../directory/provider.ts';
import { CookieBrowser, type ListeningTestServer } from './listening.ts';

/**
 * Gets a Teams-style single sign-on token from the development directory: what Teams'
 * `getAuthToken()` hands a tab, a JWT for BTalk's API. Signs in with the directory's form as the
 * Teams stand-in client (public, PKCE) and redeems the code for a token of that audience.
 */
export async function teamsToken(server: ListeningTestServer, email: string): Promise<string> {
  const { issuer, apiAudience } = server.ctx.config.directory;
  const redirectUri = `${server.url}/teamtab`;
  const verifier = randomBytes(32).toString('base64url');
  const browser = new CookieBrowser();
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
  const page = await browser.follow(authorize.href, redirectUri);
  const html = (await page.response?.text()) ?? '';
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`no sign-in form: ${html.slice(0, 300)}`);
  const posted = await browser.fetch(new URL(action.replace(/&#47;/g, '/'), page.url).href, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password: 'btalk' }).toString(),
  });
  const back = await browser.follow(
    new URL(posted.headers.get('location') ?? '', page.url).href,
    redirectUri,
  );
  const code = back.url.searchParams.get('code');
  if (!code) throw new Error(`no code at ${back.url.href}`);
  const token = await fetch(`${issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: TEAMS_DEVELOPMENT_CLIENT_ID,
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
      resource: apiAudience,
    }).toString(),
  });
  const body = (await token.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`no token: ${JSON.stringify(body)}`);
  return body.access_token;
}
