// The first screen's JavaScript: opens the built app in Debian's Chromium against a real server, signed
// out (`/`, which is the sign-in screen) and signed in (`/`, Home), collects every script the page
// loads until it is idle, and prints per script the bytes actually transferred (Chromium's encoded
// body size, with the browser's own Accept-Encoding) next to the decoded size and what gzip -9 gives.
// Scripts requested after the app's after-first-screen mark (Home's app bar photo and its Graph client)
// are listed and summed apart. Run: npm run bench:web-size (after `npm run build`). Exits 1 when a
// first screen sends more than 200 KB of JavaScript over the wire (issue 14, e2e/firstLoad.ts).
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from '@playwright/test';
import {
  FIRST_LOAD_BUDGET_BYTES,
  type FirstLoad,
  kb,
  measureFirstLoad,
  prepareSignedIn,
} from '../e2e/firstLoad.ts';
import { startServer } from '../e2e/server.ts';

const server = await startServer({ ANALYTICS: 'false' });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic'],
});

/** Measures one first load in a fresh context (no HTTP cache, no service worker) and prints it. */
async function screen(
  name: string,
  prepare: (page: Page) => Promise<void>,
  ready: (page: Page) => Promise<unknown>,
  afterFirstScreen = false,
) {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  try {
    const page = await context.newPage();
    await prepare(page);
    const load: FirstLoad = await measureFirstLoad(page, `${server.url}/`, ready, { afterFirstScreen });
    let decoded = 0;
    let gzipped = 0;
    console.log(`\n${name}`);
    console.log(
      `${'sent'.padStart(10)} ${'decoded'.padStart(10)} ${'gzip -9'.padStart(10)}  encoding  script`,
    );
    for (const [script, later] of [
      ...load.scripts.map((s) => [s, false] as const),
      ...load.later.map((s) => [s, true] as const),
    ]) {
      const body = await fetch(`${server.url}${script.path}`, { headers: { 'accept-encoding': 'identity' } });
      const bytes = Buffer.from(await body.arrayBuffer());
      const gz = gzipSync(bytes, { level: 9 }).length;
      if (!later) {
        decoded += bytes.length;
        gzipped += gz;
      }
      console.log(
        `${kb(script.transferred).padStart(10)} ${kb(bytes.length).padStart(10)} ${kb(gz).padStart(10)}  ${script.encoding.padEnd(8)}  ${script.path}${later ? '  (after the first screen)' : ''}`,
      );
    }
    console.log(
      `${name}: ${load.scripts.length} scripts, ${kb(load.transferred)} sent (at most ${kb(FIRST_LOAD_BUDGET_BYTES)}), ${kb(decoded)} decoded, ${kb(gzipped)} with gzip -9; after the first screen: ${load.later.length} scripts, ${kb(load.laterTransferred)} sent`,
    );
    if (load.transferred > FIRST_LOAD_BUDGET_BYTES) process.exitCode = 1;
  } finally {
    await context.close();
  }
}

try {
  // Signed out, `/` is the sign-in screen, which sends the browser on to the directory's sign-in.
  await screen(
    'signed out (/ -> /login -> the directory)',
    async () => {},
    (page) => page.waitForURL(/\/directory\//),
  );
  await screen(
    'signed in (/ is Home)',
    (page) => prepareSignedIn(page, server.url, server.dataDir, 'Web Size Bench'),
    (page) => page.getByRole('heading', { name: 'Home', level: 1 }).waitFor(),
    true,
  );
} finally {
  await browser.close();
  await server.stop();
}
