// The first screen's JavaScript, compressed: opens `/` of the built app in Debian's Chromium against
// a real server, collects every script the page loads until it is idle, and gzips each one (level 9).
// Run: npm run bench:web-size (after `npm run build`). Exits 1 above the 250 KB budget (DESIGN.md 9).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { startServer } from '../e2e/server.ts';

const BUDGET_BYTES = 250 * 1024;
const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/web/dist');

const server = await startServer({ ANALYTICS: 'false' });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  const page = await browser.newPage();
  const scripts = new Set<string>();
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname.endsWith('.js') && !url.pathname.endsWith('/sw.js')) scripts.add(url.pathname);
  });
  await page.goto(`${server.url}/`, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { level: 1 }).waitFor();
  let raw = 0;
  let gzipped = 0;
  const rows: string[] = [];
  for (const script of [...scripts].sort()) {
    const bytes = readFileSync(path.join(dist, script));
    const gz = gzipSync(bytes, { level: 9 }).length;
    raw += bytes.length;
    gzipped += gz;
    rows.push(`${(gz / 1024).toFixed(1).padStart(8)} KB  ${script}`);
  }
  console.log(rows.join('\n'));
  console.log(
    `first screen: ${scripts.size} scripts, ${(raw / 1024).toFixed(1)} KB raw, ${(gzipped / 1024).toFixed(1)} KB gzip (budget ${BUDGET_BYTES / 1024} KB)`,
  );
  if (gzipped > BUDGET_BYTES) process.exitCode = 1;
} finally {
  await browser.close();
  await server.stop();
}
