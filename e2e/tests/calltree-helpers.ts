import type { Browser, Page } from '@playwright/test';
import { acceptTerms, accessTokenFor, serverDataDir, storeSession, userIdByEmail } from '../session.ts';

/** A person's own browser: a fresh context with their session injected, on `path`. */
export async function browserOf(
  browser: Browser,
  baseURL: string,
  userId: string,
  path = '/',
  viewport = { width: 1280, height: 900 },
): Promise<Page> {
  const dataDir = serverDataDir();
  acceptTerms(dataDir, userId);
  const context = await browser.newContext({ baseURL, viewport, acceptDownloads: true });
  const page = await context.newPage();
  // A page of the server that needs no session: `/` would send a signed-out browser to sign in.
  await page.goto('/__/firebase/init.json');
  await storeSession(page, {
    accessToken: accessTokenFor(dataDir, baseURL, userId),
    refreshToken: 'not-used',
  });
  await page.goto(path);
  return page;
}

/** The id of a seeded directory person. */
export function seeded(email: string): string {
  return userIdByEmail(serverDataDir(), email);
}

/** Calls the product API as a person (who has accepted the terms), outside the screens: test set-up and checks. */
export async function apiAs<T>(
  page: Page,
  baseURL: string,
  userId: string,
  method: 'GET' | 'POST' | 'PATCH',
  path: string,
  body?: unknown,
): Promise<T> {
  acceptTerms(serverDataDir(), userId);
  const config = (await (await page.request.get(`${baseURL}/__/firebase/init.json`)).json()) as {
    apiKey: string;
  };
  const response = await page.request.fetch(`${baseURL}/api${path}`, {
    method,
    headers: {
      authorization: `Bearer ${accessTokenFor(serverDataDir(), baseURL, userId)}`,
      'x-api-key': config.apiKey,
      'content-type': 'application/json',
    },
    ...(body === undefined ? {} : { data: body }),
  });
  const envelope = (await response.json()) as { code: number; data: T; message?: string };
  if (envelope.code !== 0) throw new Error(`${method} ${path}: ${envelope.code} ${envelope.message}`);
  return envelope.data;
}
