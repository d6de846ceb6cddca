import type { Page } from '@playwright/test';
import { fillDirectorySignIn } from '../directory.ts';
import { expect, test } from '../fixtures.ts';
import { acceptTermsFor, serverDataDir } from '../session.ts';

// A 2x2 PNG: shown in the post from a blob: URL.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * Collects every Content-Security-Policy violation on the page's documents (the app and the
 * directory's sign-in page): `securitypolicyviolation` events and the browser's console reports.
 */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  const reported: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Content-Security-Policy/i.test(message.text()))
      reported.push(message.text());
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push(`${event.effectiveDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`);
    });
  });
  return async () => [
    ...reported,
    ...(await page.evaluate(() => (window as unknown as { cspViolations?: string[] }).cspViolations ?? [])),
  ];
}

test('the app signs in and works under its Content-Security-Policy, with no violation', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const email = 'somchai@btalk.test';
  acceptTermsFor(serverDataDir(), email);
  const violations = await watchViolations(page);

  const index = await page.request.get(`${baseURL}/`);
  const policy = index.headers()['content-security-policy'] ?? '';
  expect(policy).toContain("script-src 'self'");
  expect(policy).toContain('frame-ancestors');
  expect(index.headers()['x-frame-options']).toBeUndefined();

  // Sign in through the directory's own page (its own policy), back to the app.
  await page.goto('/topics/new');
  await fillDirectorySignIn(page, email);
  await expect(page.getByRole('heading', { name: 'New topic', level: 1 })).toBeVisible();
  // The photo from the directory's Graph, shown from a data: URL.
  await expect(page.getByRole('button', { name: 'Account menu' }).getByRole('img')).toHaveAttribute(
    'src',
    /^data:image\//,
  );

  // A topic and a post with an image (blob: URL), over the API and the realtime socket.
  await page.getByLabel('Title').fill(`Under the policy ${Date.now()}`);
  await page.getByLabel('Everyone in the organisation').check();
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page).toHaveURL(/\/topics\/[0-9a-f-]+$/);
  await page
    .getByTestId('composer-file-input')
    .setInputFiles({ name: 'site.png', mimeType: 'image/png', buffer: PNG });
  await page.getByLabel('Message').fill('The site, under the policy');
  await page.getByRole('button', { name: 'Post', exact: true }).click();
  const image = page.getByRole('article').filter({ hasText: 'The site, under the policy' }).getByRole('img', {
    name: 'site.png',
  });
  await expect(image).toHaveAttribute('src', /^blob:/);
  expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(2);

  // The call tree, and a reload (service worker, manifest, fonts).
  await page.goto('/calltree');
  await expect(page.getByRole('heading', { name: 'Call tree', level: 1 })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Call tree', level: 1 })).toBeVisible();
  expect(await violations()).toEqual([]);
});
