import { expect, test } from '../fixtures.ts';
import { signInAs } from '../session.ts';

test('the server serves the web app on / and on client-side routes', async ({ page, baseURL }) => {
  await signInAs(page, baseURL ?? '', 'Foundation Tester');
  await page.goto('/');
  await expect(page.locator('#app')).toBeAttached();
  await expect(page.getByRole('link', { name: 'BTalk' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
  const res = await page.goto('/topics/123');
  expect(res?.status()).toBe(200);
  await expect(page.locator('#app')).toBeAttached();
});

test('the web configuration is served on the same origin', async ({ request }) => {
  const res = await request.get('/__/firebase/init.json');
  expect(res.ok()).toBe(true);
  expect(await res.json()).toMatchObject({ productName: 'BTalk' });
});
