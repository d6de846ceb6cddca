import type { Browser, Page } from '@playwright/test';
import {
  acceptTerms,
  accessTokenFor,
  insertPerson,
  serverDataDir,
  storeSession,
  userIdByEmail,
} from '../session.ts';

/**
 * A person's own browser: a fresh context with their session injected, on `path`. The person accepts
 * the current terms first unless `acceptedTerms: false`.
 */
export async function browserOf(
  browser: Browser,
  baseURL: string,
  userId: string,
  path = '/',
  viewport = { width: 1280, height: 900 },
  { acceptedTerms = true }: { acceptedTerms?: boolean } = {},
): Promise<Page> {
  const dataDir = serverDataDir();
  if (acceptedTerms) acceptTerms(dataDir, userId);
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
  method: 'GET' | 'POST' | 'PATCH' | 'PUT',
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

/** One person's answers to an event, as the roll-up's person history gives them. */
export interface History {
  answers: Array<{ clientId: string; optionId: string; answeredAt: string; recordedAt: string }>;
}

/**
 * An admin's page (only for set-up and checks through the API) and a running drill targeting one new
 * person (who has accepted the terms unless `acceptedTerms: false`), with the person's answer history.
 */
export async function drillFor(
  browser: Browser,
  baseURL: string,
  name: string,
  title: string,
  { acceptedTerms = true }: { acceptedTerms?: boolean } = {},
) {
  const adminId = seeded('admin@btalk.test');
  const admin = await browserOf(browser, baseURL, adminId);
  const person = insertPerson(serverDataDir(), name, { acceptedTerms });
  const { tree } = await apiAs<{ tree: { id: string } }>(admin, baseURL, adminId, 'POST', '/calltree/trees', {
    name: `${name}'s tree`,
    source: 'empty',
  });
  await apiAs(admin, baseURL, adminId, 'POST', `/calltree/trees/${tree.id}/members`, {
    userId: person.id,
    managerId: null,
  });
  const event = await apiAs<{ id: string }>(
    admin,
    baseURL,
    adminId,
    'POST',
    `/calltree/trees/${tree.id}/events`,
    {
      title,
      message: 'Check in, please.',
      kind: 'drill',
    },
  );
  const history = () =>
    apiAs<History>(admin, baseURL, adminId, 'GET', `/calltree/events/${event.id}/people/${person.id}`);
  return { admin, person, event, history };
}
