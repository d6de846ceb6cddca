import type { Page, Request, Response } from '@playwright/test';
import { fillDirectorySignIn, storedSession } from '../directory.ts';
import { expect, test } from '../fixtures.ts';
import { startServer } from '../server.ts';
import { acceptTermsFor, serverDataDir } from '../session.ts';

const SOMCHAI = 'somchai@btalk.test';
/** Signs in after Somchai signed out, in the same browser; no other test signs in as her. */
const ANONG = 'anong@btalk.test';

async function apiKey(page: Page, baseURL: string): Promise<string> {
  const res = await page.request.get(`${baseURL}/__/firebase/init.json`);
  return ((await res.json()) as { apiKey: string }).apiKey;
}

test('signs in through the directory, lands on the page started from, survives a reload, signs out for good', async ({
  page,
  baseURL,
}) => {
  acceptTermsFor(serverDataDir(), SOMCHAI);
  acceptTermsFor(serverDataDir(), ANONG);
  const exchanged = page.waitForResponse((r) => r.url().endsWith('/api/auth/code'));
  await page.goto('/calltree/event/7?tab=open');
  // No session: /login sends the browser to the directory at once.
  await fillDirectorySignIn(page, SOMCHAI);
  const session = (
    (await (await exchanged).json()) as {
      data: { accessToken: string; refreshToken: string; aadAccessToken: string };
    }
  ).data;
  await expect(page).toHaveURL(/\/calltree\/event\/7\?tab=open$/);
  await expect(page.getByRole('heading', { name: 'Call tree event', level: 1 })).toBeVisible();

  // The product tokens are sealed: neither they nor any JWT can be read from localStorage.
  const stored = await storedSession(page);
  for (const sealed of [stored.btalk_token, stored.btalk_refresh]) {
    expect(sealed).toBeTruthy();
    expect(sealed).not.toMatch(/eyJ|\./);
  }
  const raw = await page.evaluate(() => localStorage.getItem('btalk') ?? '');
  expect(raw).not.toContain(session.accessToken);
  expect(raw).not.toContain(session.refreshToken);
  expect(stored.aad_token).toBe(session.aadAccessToken);

  // Name (the directory gives Somchai's Thai name) and photo (from the Graph client) in the user menu.
  const menuButton = page.getByRole('button', { name: 'Account menu' });
  const avatar = menuButton.getByRole('img', { name: 'สมชาย ใจดี' });
  await expect(avatar).toHaveAttribute('src', /^data:image\/svg\+xml/);
  await page.reload();
  await expect(page).toHaveURL(/\/calltree\/event\/7\?tab=open$/);
  await expect(page.getByRole('heading', { name: 'Call tree event', level: 1 })).toBeVisible();
  await menuButton.click();
  await expect(page.getByRole('menuitem', { name: /สมชาย ใจดี/ })).toBeVisible();

  // From the sign-out on, nothing may go to the directory or ask for a sign-in URL by itself.
  const startedSignIn: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith('/directory/auth') || url.pathname === '/api/auth/aad')
      startedSignIn.push(r.url());
  });
  const logout = page.waitForResponse((r) => r.url().endsWith('/api/auth/logout'));
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  expect((await logout).status()).toBe(200);
  const signedOut = page.getByRole('heading', { name: 'You have signed out', level: 1 });
  await expect(signedOut).toBeVisible();
  expect(await storedSession(page)).toMatchObject({
    btalk_token: null,
    btalk_refresh: null,
    aad_token: null,
    signed_out: true,
  });
  // The server ended the session: its refresh token no longer works.
  const refused = await page.request.post(`${baseURL}/api/auth/refresh`, {
    headers: { 'x-api-key': await apiKey(page, baseURL ?? '') },
    data: { refreshToken: session.refreshToken, redirectUri: `${baseURL}/aad/callback` },
  });
  expect(refused.status()).toBe(401);

  // The signed-out screen stays, also after a fresh load of /login and of a page that needs a session.
  await page.waitForTimeout(1500);
  for (const path of ['/login', '/calltree']) {
    await page.goto(path);
    await expect(signedOut).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    await page.waitForTimeout(1000);
  }
  await expect(page).toHaveURL(/\/login$/);
  expect(startedSignIn).toEqual([]);

  // "Sign in": the directory still knows Somchai, yet asks who signs in, so another person can.
  const aad = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/auth/aad');
  await page.getByRole('button', { name: 'Sign in' }).click();
  expect(new URL((await aad).url()).searchParams.get('prompt')).toBe('select_account');
  await fillDirectorySignIn(page, ANONG);
  await expect(page.getByRole('heading', { name: 'Call tree', level: 1 })).toBeVisible();
  expect(await storedSession(page)).toMatchObject({ signed_out: false });
  await menuButton.click();
  await expect(page.getByRole('menuitem', { name: /อนงค์ สุวรรณรัตน์/ })).toBeVisible();
});

test('a callback address from one browser does not sign another browser in (login CSRF)', async ({
  browser,
  baseURL,
}) => {
  // Someone no other test signs in as (terms.spec.ts needs Malee to have accepted nothing).
  const KITTISAK = 'kittisak@btalk.test';
  acceptTermsFor(serverDataDir(), KITTISAK);
  const attackers = await browser.newContext();
  const victims = await browser.newContext();
  try {
    // Someone signs in as themselves and keeps the callback address instead of letting it finish.
    const attacker = await attackers.newPage();
    await attacker.route('**/api/auth/code', (route) => route.abort());
    await attacker.goto(`${baseURL}/login`);
    await fillDirectorySignIn(attacker, KITTISAK);
    await attacker.waitForURL(/\/aad\/callback\?code=/);
    const link = attacker.url();

    // The link opened in another browser: refused before any code exchange, and nobody signed in.
    const victim = await victims.newPage();
    const refused = victim.waitForResponse((r) => r.url().endsWith('/api/auth/code'));
    await victim.goto(link);
    expect((await refused).status()).toBe(400);
    await expect(victim.getByRole('alert')).toHaveText(
      "This sign-in was started in another browser, or this browser's cookies were cleared meanwhile, so it cannot finish here. Start signing in again from this browser.",
    );
    expect((await storedSession(victim)).btalk_token ?? null).toBeNull();

    // The browser that started it still can (the refusal spent nothing), as a sign-in normally does.
    await attacker.unroute('**/api/auth/code');
    const exchanged = attacker.waitForResponse((r) => r.url().endsWith('/api/auth/code'));
    await attacker.goto(link);
    expect((await exchanged).status()).toBe(200);
    await attacker.getByRole('button', { name: 'Account menu' }).click();
    await expect(attacker.getByRole('menuitem', { name: /Kittisak Thongdee|กิตติศักดิ์ ทองดี/ })).toBeVisible();
  } finally {
    await attackers.close();
    await victims.close();
  }
});

/** The call tree page has its answers: its three lists are shown. */
async function settled(page: Page): Promise<void> {
  for (const text of ['No event is running.', 'You are not in any call tree yet.', 'No past events yet.'])
    await expect(page.getByText(text)).toBeVisible();
}

test('an expired access token is refreshed once and the request repeated, also with two tabs', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const server = await startServer({ ACCESS_TOKEN_TTL_SECONDS: '5' });
  const context = await browser.newContext();
  try {
    acceptTermsFor(server.dataDir, SOMCHAI);
    // This test is about the HTTP client's refresh. The realtime socket refreshes too when the server
    // closes it at the token's expiry (its own tests cover that), so it is kept from the server here.
    await context.routeWebSocket(/\/api\/realtime$/, () => {});
    const page = await context.newPage();
    await page.goto(`${server.url}/calltree`);
    await fillDirectorySignIn(page, SOMCHAI);
    // Settled: the page's own requests answered (on a slow machine a 5 s token may already have
    // expired and been refreshed meanwhile: what is counted starts at the reload below).
    await settled(page);

    const seen: string[] = [];
    const record = (r: Response) => {
      const path = new URL(r.url()).pathname;
      if (path === '/api/me' || path === '/api/auth/refresh')
        seen.push(`${r.request().method()} ${path} ${r.status()}`);
    };
    context.on('response', record);
    await page.waitForTimeout(6000);
    seen.length = 0;
    await page.reload();
    await page.getByRole('button', { name: 'Account menu' }).click();
    await expect(page.getByRole('menuitem', { name: /สมชาย ใจดี/ })).toBeVisible();
    await page.keyboard.press('Escape');
    expect(seen).toEqual(['GET /api/me 401', 'POST /api/auth/refresh 200', 'GET /api/me 200']);
    await expect(page).toHaveURL(/\/calltree$/);

    // Two tabs whose access tokens expired at the same moment: the Web Lock lets one of them refresh,
    // the other finds the new tokens; neither is signed out.
    const second = await context.newPage();
    await second.goto(`${server.url}/calltree`);
    await settled(second);
    await second.waitForTimeout(6000);
    seen.length = 0;
    const refreshes: Request[] = [];
    context.on('request', (r) => {
      if (r.url().endsWith('/api/auth/refresh')) refreshes.push(r);
    });
    await Promise.all([page.reload(), second.reload()]);
    for (const tab of [page, second]) {
      await tab.getByRole('button', { name: 'Account menu' }).click();
      await expect(tab.getByRole('menuitem', { name: /สมชาย ใจดี/ })).toBeVisible();
      await tab.keyboard.press('Escape');
      await expect(tab).toHaveURL(/\/calltree$/);
    }
    // Which tab meets the expired token first varies; what matters is that no refresh token is ever
    // presented twice (the Web Lock serialises the tabs: the second finds the new tokens) and that
    // neither tab is signed out. (On a slow machine a 5 s token may expire again meanwhile, which
    // legitimately costs another refresh, with the newer token.)
    expect(refreshes.length).toBeGreaterThanOrEqual(1);
    const presented = refreshes.map((r) => (r.postDataJSON() as { refreshToken: string }).refreshToken);
    expect(new Set(presented).size).toBe(presented.length);
    expect(seen.filter((s) => s === 'GET /api/me 200').length).toBeGreaterThanOrEqual(2);
  } finally {
    await context.close();
    await server.stop();
  }
});

test('with SIGN_IN_MODE=popup, the directory opens in a popup that hands the session back', async ({
  browser,
}) => {
  const server = await startServer({ SIGN_IN_MODE: 'popup' });
  const context = await browser.newContext();
  try {
    acceptTermsFor(server.dataDir, SOMCHAI);
    const page = await context.newPage();
    const popupOpened = page.waitForEvent('popup');
    await page.goto(`${server.url}/topics/new`);
    const popup = await popupOpened;
    await fillDirectorySignIn(popup, SOMCHAI);
    await popup.waitForEvent('close');
    await expect(page).toHaveURL(/\/topics\/new$/);
    await expect(page.getByRole('heading', { name: 'New topic', level: 1 })).toBeVisible();
    await page.getByRole('button', { name: 'Account menu' }).click();
    await expect(page.getByRole('menuitem', { name: /สมชาย ใจดี/ })).toBeVisible();
  } finally {
    await context.close();
    await server.stop();
  }
});
