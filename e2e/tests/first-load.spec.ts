import {
  FIRST_LOAD_BUDGET_BYTES,
  type FirstLoad,
  kb,
  measureFirstLoad,
  prepareSignedIn,
} from '../firstLoad.ts';
import { expect, test } from '../fixtures.ts';
import { serverDataDir } from '../session.ts';

// The bytes of JavaScript the first screen actually takes over the wire, as Chromium counted them
// (encoded body sizes, with the browser's own Accept-Encoding): no HTTP cache, no service worker.
test.use({ serviceWorkers: 'block' });

/** The entry script named by index.html (the one every screen starts with). */
async function entryScript(page: import('@playwright/test').Page, baseURL: string): Promise<string> {
  const html = await (await page.request.get(`${baseURL}/index.html`)).text();
  const src = html.match(/<script type="module" crossorigin src="([^"]+)"/)?.[1];
  expect(src, 'index.html names its entry script').toBeTruthy();
  return src ?? '';
}

function expectCompressed(load: FirstLoad, entry: string) {
  const main = load.scripts.find((s) => s.path === entry);
  expect(main, `the entry script ${entry} was loaded`).toBeTruthy();
  expect(main?.encoding).toBe('br');
  // What went over the wire is the brotli body, not the 470 KB script.
  expect(main?.transferred).toBeLessThan(200 * 1024);
  for (const script of load.scripts.filter((s) => s.transferred >= 1024)) {
    expect(script.encoding, script.path).toBe('br');
  }
}

function describeLoad(load: FirstLoad): string {
  const line = (s: FirstLoad['scripts'][number]) => `${kb(s.transferred)} ${s.encoding} ${s.path}`;
  return [...load.scripts.map(line), ...load.later.map((s) => `later: ${line(s)}`)].join('\n');
}

test('the sign-in screen sends at most 200 KB of JavaScript, brotli-compressed', async ({
  page,
  baseURL,
}) => {
  const entry = await entryScript(page, baseURL ?? '');
  // Signed out, the sign-in screen runs and sends the browser on to the directory's sign-in.
  const load = await measureFirstLoad(page, `${baseURL}/login`, (p) => p.waitForURL(/\/directory\//));
  expectCompressed(load, entry);
  expect(load.transferred, describeLoad(load)).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_BYTES);
});

test('Home, signed in, sends at most 200 KB of JavaScript, brotli-compressed; the Graph client comes later', async ({
  page,
  baseURL,
}) => {
  const entry = await entryScript(page, baseURL ?? '');
  await prepareSignedIn(page, baseURL ?? '', serverDataDir(), 'First Load Tester');
  const load = await measureFirstLoad(
    page,
    `${baseURL}/`,
    (p) => expect(p.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible(),
    { afterFirstScreen: true },
  );
  expectCompressed(load, entry);
  expect(load.transferred, describeLoad(load)).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_BYTES);
  // Only two things wait until after the first screen, and nothing else may hide behind that mark: the
  // app bar's photo (the Graph client, axios) and Home's Important strip with the API part it calls
  // (issue 17: its posts are also pinned in their topic and come by notification; on the first screen
  // it took Home past the budget, which has almost no room left).
  expect(load.later.map((s) => s.path).sort(), describeLoad(load)).toEqual([
    expect.stringMatching(/^\/assets\/ImportantStrip-[\w-]+\.js$/),
    expect.stringMatching(/^\/assets\/announcementKeys-[\w-]+\.js$/),
    expect.stringMatching(/^\/assets\/announcements-[\w-]+\.js$/),
    expect.stringMatching(/^\/assets\/graphHttp-[\w-]+\.js$/),
    expect.stringMatching(/^\/assets\/useAnnouncements-[\w-]+\.js$/),
  ]);
  expect(
    load.scripts.some((s) => s.path.includes('graphHttp')),
    describeLoad(load),
  ).toBe(false);
});
