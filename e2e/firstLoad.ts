import type { Page, Response } from '@playwright/test';
import { accessTokenFor, insertPerson, storeSession } from './session.ts';

/** Issue 14: the first screen sends at most 200 KB of JavaScript over the wire. */
export const FIRST_LOAD_BUDGET_BYTES = 200 * 1024;

/**
 * The performance mark the app sets when it starts what it holds back until after the first screen
 * (`AFTER_FIRST_SCREEN_MARK` in apps/web/src/startup/afterFirstScreen.ts): the app bar's photo, with
 * the Graph client's code.
 */
export const AFTER_FIRST_SCREEN_MARK = 'btalk:after-first-screen';

/** One script of the first screen as the browser received it. */
export interface LoadedScript {
  /** The URL's path, e.g. /assets/index-abc123.js. */
  path: string;
  /** The body's bytes on the wire (Chromium's encoded size: compressed when it was sent compressed). */
  transferred: number;
  /** The response's Content-Encoding, or "identity". */
  encoding: string;
}

/** The scripts of one page load, and their totals. */
export interface FirstLoad {
  /** What the first screen loaded: everything requested before the app's after-first-screen mark. */
  scripts: LoadedScript[];
  transferred: number;
  /** Requested after the mark (the page had drawn its first screen and was idle), until the network was idle. */
  later: LoadedScript[];
  laterTransferred: number;
}

/**
 * Opens `url` in `page` and records every script the page loads until `ready` has resolved and the
 * network is idle, with the bytes each body took on the wire (`request.sizes().responseBodySize`,
 * what Chromium counted before decoding). Scripts whose request started after the app's
 * `AFTER_FIRST_SCREEN_MARK` (the page's own resource timings against that mark) are counted apart,
 * as `later`; without the mark everything counts as the first screen. With `afterFirstScreen` it
 * also waits for the mark, so that what comes later is loaded and listed. Run it in a fresh browser
 * context with service workers blocked, so that every script comes from the network, not from a cache.
 */
export async function measureFirstLoad(
  page: Page,
  url: string,
  ready: (page: Page) => Promise<unknown>,
  { afterFirstScreen = false }: { afterFirstScreen?: boolean } = {},
): Promise<FirstLoad> {
  const pending: Promise<LoadedScript | null>[] = [];
  const onResponse = (response: Response) => {
    pending.push(scriptOf(response));
  };
  let inFlight = 0;
  const started = () => inFlight++;
  const ended = () => inFlight--;
  page.on('response', onResponse);
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  try {
    await page.goto(url, { waitUntil: 'networkidle' });
    await ready(page);
    if (afterFirstScreen) {
      await page.waitForFunction(
        (mark) => performance.getEntriesByName(mark, 'mark').length > 0,
        AFTER_FIRST_SCREEN_MARK,
      );
    }
    await networkQuiet(() => inFlight);
  } finally {
    page.off('response', onResponse);
    page.off('request', started);
    page.off('requestfinished', ended);
    page.off('requestfailed', ended);
  }
  const timing = await page.evaluate((mark) => {
    const at = performance.getEntriesByName(mark, 'mark')[0]?.startTime ?? null;
    const started = performance
      .getEntriesByType('resource')
      .map((entry) => [new URL(entry.name).pathname, entry.startTime] as const);
    return { at, started };
  }, AFTER_FIRST_SCREEN_MARK);
  const startedAt = new Map(timing.started);
  const all = (await Promise.all(pending))
    .filter((s): s is LoadedScript => s !== null)
    .sort((a, b) => a.path.localeCompare(b.path));
  const isLater = (s: LoadedScript) => timing.at !== null && (startedAt.get(s.path) ?? 0) >= timing.at;
  const scripts = all.filter((s) => !isLater(s));
  const later = all.filter(isLater);
  return {
    scripts,
    transferred: scripts.reduce((sum, s) => sum + s.transferred, 0),
    later,
    laterTransferred: later.reduce((sum, s) => sum + s.transferred, 0),
  };
}

/** Resolves once no request has been in flight for half a second (Playwright's "networkidle", from now). */
async function networkQuiet(inFlight: () => number): Promise<void> {
  let quietSince = Date.now();
  while (Date.now() - quietSince < 500) {
    await new Promise((done) => setTimeout(done, 50));
    if (inFlight() > 0) quietSince = Date.now();
  }
}

async function scriptOf(response: Response): Promise<LoadedScript | null> {
  const { pathname } = new URL(response.url());
  if (response.request().resourceType() !== 'script' && !pathname.endsWith('.js')) return null;
  // Kept by Playwright from Chromium's loading events: still known once the page has navigated on.
  const sizes = await response.request().sizes();
  return {
    path: pathname,
    transferred: sizes.responseBodySize,
    encoding: (await response.headerValue('content-encoding')) ?? 'identity',
  };
}

/**
 * A directory (Graph) token as people signed in through the directory hold one, so that the app bar
 * asks Graph for their photo as it does for them. The development Graph does not accept this one
 * (the photo answers 401 and the initials stay), but the Graph client's code loads all the same.
 */
const DIRECTORY_TOKEN = 'injected-directory-token';

/**
 * Writes a new person into the server's database and stores their session in `page` (on a page that
 * needs no session and loads no script), directory token included, without opening the app: the
 * next `goto('/')` is then the signed-in first load.
 */
export async function prepareSignedIn(
  page: Page,
  baseURL: string,
  dataDir: string,
  displayName: string,
): Promise<void> {
  const person = insertPerson(dataDir, displayName);
  const accessToken = accessTokenFor(dataDir, baseURL, person.id);
  await page.goto(`${baseURL}/__/firebase/init.json`);
  await storeSession(page, {
    accessToken,
    refreshToken: 'injected-refresh-token',
    aadToken: DIRECTORY_TOKEN,
  });
}

/** A byte count in KB (1,024 bytes) with one decimal. */
export function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}
