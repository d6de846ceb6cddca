// A long topic on a phone (issue 14, point 6): starts the real app (SQLite in a temporary folder),
// signs a directory person in through the development directory's real OpenID Connect sign-in in
// Debian's Chromium, seeds a topic of 2,000 posts straight into the database, then runs Lighthouse
// (mobile form factor, its default simulated throttling, performance only) on the topic page in that
// signed-in browser, several times, and prints the median score, TBT, CLS and LCP. Each run starts
// cold: the HTTP cache, the service worker and its caches are cleared, the session is kept
// (disableStorageReset). Then it counts the requests for posts it takes to reach the topic's first
// post: scrolling up, and with the "Jump to the first post" button where the app has one.
// Run: node --experimental-strip-types bench/long-topic.ts [runs] [posts]   (after `npm run build`);
// LIGHTHOUSE_REPORT=<file> writes the last run's full report (JSON) there, to read what it blames.
import { writeFileSync } from 'node:fs';
import { chromium, type Page } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { apiAs } from '../e2e/api.ts';
import { fillDirectorySignIn } from '../e2e/directory.ts';
import { insertPosts } from '../e2e/posts.ts';
import { startServer } from '../e2e/server.ts';
import { acceptTermsFor, accessTokenFor, userIdByEmail } from '../e2e/session.ts';

const runs = Number(process.argv[2] ?? 3);
const postCount = Number(process.argv[3] ?? 2000);
const EMAIL = 'kanya@btalk.test';

const median = (values: number[]) => values.slice().sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** One Lighthouse run on the page, in the browser at `port` (its storage, so its session, kept). */
async function audit(port: number, url: string) {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance'],
    disableStorageReset: true,
  });
  if (!result) throw new Error('Lighthouse gave no result');
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message}`);
  if (process.env.LIGHTHOUSE_REPORT) writeFileSync(process.env.LIGHTHOUSE_REPORT, JSON.stringify(lhr));
  const value = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const blamed = (
    lhr.audits['bootup-time']?.details as { items?: { url: string; scripting: number }[] }
  )?.items
    ?.slice(0, 3)
    .map((i) => `${i.url.replace(/^https?:\/\/[^/]+/, '')} ${Math.round(i.scripting)} ms`)
    .join(', ');
  return {
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    tbt: value('total-blocking-time'),
    cls: value('cumulative-layout-shift'),
    lcp: value('largest-contentful-paint'),
    fcp: value('first-contentful-paint'),
    blamed,
  };
}

/** Forgets what a first visit would not have: the HTTP cache, the service worker and its caches. */
async function coldStart(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.clearBrowserCache');
  await cdp.detach();
  await page.evaluate(async () => {
    for (const registration of await navigator.serviceWorker.getRegistrations())
      await registration.unregister();
    for (const key of await caches.keys()) await caches.delete(key);
  });
}

const scroller = (page: Page) =>
  page
    .getByRole('feed')
    .evaluate((el) => el.closest('[data-virtuoso-scroller]')?.scrollTo({ top: 0 }) ?? null);

/** Requests for posts from opening the topic until its first post shows, by `reach`. */
async function requestsToTop(page: Page, url: string, topicId: string, reach: (page: Page) => Promise<void>) {
  await page.goto(url);
  await page.getByRole('feed').waitFor();
  let requests = 0;
  const count = (r: { url(): string }) => {
    if (r.url().includes(`/api/topics/${topicId}/posts`)) requests += 1;
  };
  page.on('request', count);
  await reach(page);
  page.off('request', count);
  return requests;
}

const beginning = (page: Page) => page.getByText('This is the beginning of the topic.');

const server = await startServer({ ANALYTICS: 'false' });
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'],
});
try {
  // Sign in as a person would: the app sends the browser to the directory's sign-in form.
  acceptTermsFor(server.dataDir, EMAIL);
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
  const context = browser.contexts()[0]!;
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`${server.url}/`);
  await fillDirectorySignIn(page, EMAIL);
  await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();

  const userId = userIdByEmail(server.dataDir, EMAIL);
  const token = accessTokenFor(server.dataDir, server.url, userId);
  const topic = await apiAs<{ id: string }>(server.url, token, 'POST', '/topics', {
    title: 'Flood response, building B',
    visibility: 'organisation',
  });
  insertPosts(server.dataDir, topic.id, userId, postCount, 'Update');
  const url = `${server.url}/topics/${topic.id}`;
  // Once, so that the topic's first visit (terms, read state) is not in the measured runs.
  await page.goto(url);
  await page.getByRole('feed').waitFor();

  const results = [];
  for (let run = 1; run <= runs; run++) {
    await coldStart(page);
    const result = await audit(chrome.port, url);
    console.error(
      `run ${run}: score ${result.score}, TBT ${Math.round(result.tbt)} ms, CLS ${result.cls.toFixed(3)}, LCP ${Math.round(result.lcp)} ms, FCP ${Math.round(result.fcp)} ms; scripting: ${result.blamed}`,
    );
    results.push(result);
  }

  const scrolling = await requestsToTop(page, url, topic.id, async (p) => {
    for (let i = 0; i < 500 && !(await beginning(p).isVisible()); i++) {
      await scroller(p);
      await p.waitForTimeout(150);
    }
  });
  const jumpButton = (p: Page) => p.getByRole('button', { name: 'Jump to the first post' });
  await page.goto(url);
  const hasJump = await jumpButton(page)
    .waitFor({ timeout: 5000 })
    .then(() => true)
    .catch(() => false);
  const jumping = hasJump
    ? await requestsToTop(page, url, topic.id, async (p) => {
        await jumpButton(p).click();
        await beginning(p).waitFor();
        await p.getByText('Update 1', { exact: true }).waitFor();
      })
    : null;
  await browser.close();

  console.log(`\n${postCount}-post topic, Lighthouse ${runs} runs (median), mobile, simulated throttling`);
  console.log('| score | TBT | CLS | LCP | FCP | requests to the top: scrolling | with the jump |');
  console.log('|---|---|---|---|---|---|---|');
  console.log(
    `| ${median(results.map((r) => r.score))} | ${Math.round(median(results.map((r) => r.tbt)))} ms | ${median(
      results.map((r) => r.cls),
    ).toFixed(3)} | ${(median(results.map((r) => r.lcp)) / 1000).toFixed(1)} s | ${(
      median(results.map((r) => r.fcp)) / 1000
    ).toFixed(1)} s | ${scrolling} | ${jumping ?? 'no jump'} |`,
  );
} finally {
  chrome.kill();
  await server.stop();
}
