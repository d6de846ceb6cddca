import {
  FIRST_LOAD_BUDGET_BYTES,
  type FirstLoad,
  kb,
  measureFirstLoad,
  prepareSignedIn,
  SIGNED_IN_HOME_CEILING_BYTES,
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
  return load.scripts.map((s) => `${kb(s.transferred)} ${s.encoding} ${s.path}`).join('\n');
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

test('Home, signed in, sends its JavaScript brotli-compressed, within its ceiling', async ({
  page,
  baseURL,
}) => {
  const entry = await entryScript(page, baseURL ?? '');
  await prepareSignedIn(page, baseURL ?? '', serverDataDir(), 'First Load Tester');
  const load = await measureFirstLoad(page, `${baseURL}/`, (p) =>
    expect(p.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible(),
  );
  expectCompressed(load, entry);
  expect(load.transferred, describeLoad(load)).toBeLessThanOrEqual(SIGNED_IN_HOME_CEILING_BYTES);
});
