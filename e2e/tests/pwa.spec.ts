import { expect, test } from '../fixtures.ts';
import { startServer } from '../server.ts';
import { signInAs } from '../session.ts';

test('the web app manifest has the theme colours and icons', async ({ page, request, baseURL }) => {
  await signInAs(page, baseURL ?? '', 'Manifest Tester');
  await page.goto('/');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBeTruthy();
  const manifest = await (await request.get(href ?? '')).json();
  expect(manifest).toMatchObject({ name: 'BTalk', theme_color: '#472F92', display: 'standalone' });
  const sizes = manifest.icons.map((icon: { sizes: string }) => icon.sizes);
  expect(sizes).toEqual(expect.arrayContaining(['192x192', '512x512']));
  for (const icon of manifest.icons as Array<{ src: string }>) {
    expect((await request.get(icon.src)).ok()).toBe(true);
  }
});

test('the built app loads its shell when the server is gone', async ({ browser }) => {
  const server = await startServer();
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await signInAs(page, server.url, 'Offline Shell Tester', { dataDir: server.dataDir });
    await page.goto(`${server.url}/calltree`);
    await expect(page.getByRole('heading', { name: 'Call tree', level: 1 })).toBeVisible();
    // Wait until the service worker has precached the shell and controls the page.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller) {
        await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve));
      }
    });
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Call tree', level: 1 })).toBeVisible();
    await server.stop();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Call tree', level: 1 })).toBeVisible();
    await page.getByRole('link', { name: 'Home' }).click();
    await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
  } finally {
    await context.close();
    await server.stop().catch(() => undefined);
  }
});
