import { expect, test } from '../fixtures.ts';
import { signInAs } from '../session.ts';

// Every screen needs a session now: these tests are about the shell, so they start signed in.
test.beforeEach(async ({ page, baseURL }) => {
  await signInAs(page, baseURL ?? '', 'Shell Tester');
});

test('start-up fetches the configuration from its own origin, then shows the app', async ({
  page,
  baseURL,
}) => {
  const config = page.waitForResponse((r) => r.url() === `${baseURL}/__/firebase/init.json`);
  await page.goto('/');
  expect((await config).ok()).toBe(true);
  await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'BTalk' })).toBeVisible();
  await expect(page).toHaveTitle('Home · BTalk');
});

test('a failed configuration fetch shows an error screen with a retry', async ({ page }) => {
  await page.route('**/__/firebase/init.json', (route) => route.abort('connectionrefused'));
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'BTalk could not start' })).toBeVisible();
  await page.unroute('**/__/firebase/init.json');
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
});

const layoutRoutes: Array<[path: string, heading: string, text: string]> = [
  ['/', 'Home', 'You are not in any topic yet. Create one with New topic, or look through All topics.'],
  ['/topics/42', 'Topic', 'This topic does not exist, or you are not one of its members.'],
  ['/topics/new', 'New topic', 'Markdown: **bold**, lists, links.'],
  ['/teamtab', 'BTalk in Teams', 'This view opens as a tab inside Microsoft Teams.'],
  ['/calltree', 'Call tree', 'You are not in any call tree yet.'],
  [
    '/calltree/event/7',
    'Call tree event',
    'This event could not be loaded: it does not exist or you are not part of it.',
  ],
];

for (const [path, heading, text] of layoutRoutes) {
  test(`${path} shows its page in the default layout`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
    await expect(page.getByText(text)).toBeVisible();
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await expect(nav.getByRole('link', { name: 'Home' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Call tree' })).toBeVisible();
    await expect(page.getByRole('group', { name: 'Language' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
  });
}

test('/aad/callback without a sign-in in progress says so, outside the layout', async ({ page }) => {
  await page.goto('/aad/callback');
  await expect(page.getByRole('heading', { name: 'Completing sign-in', level: 1 })).toBeVisible();
  await expect(page.getByText('This page finishes a sign-in, but no sign-in is in progress.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Try again' })).toHaveAttribute('href', '/login');
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toHaveCount(0);
});

test('the navigation goes between Home and the call tree', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('link', { name: 'Call tree' }).click();
  await expect(page).toHaveURL(/\/calltree$/);
  await expect(page.getByRole('heading', { name: 'Call tree', level: 1 })).toBeVisible();
  await page.getByRole('link', { name: 'Home' }).click();
  await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
});

test('an unknown path shows the not-found page', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'Page not found', level: 1 })).toBeVisible();
  await expect(page.getByText('There is no page at /no/such/page.')).toBeVisible();
  await page.getByRole('link', { name: 'Go to Home' }).click();
  await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
});

test('the last page survives a reload, and /terms and /login are not remembered', async ({ page }) => {
  await page.goto('/calltree/event/42?tab=open');
  await expect(page.getByRole('heading', { name: 'Call tree event' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Call tree event' })).toBeVisible();
  await page.goto('/terms');
  await expect(page.getByRole('heading', { name: 'Terms of use', level: 1 })).toBeVisible();
  // /login signs in again at once: it goes on to the directory's sign-in page.
  await page.goto('/login');
  await expect(page.getByLabel('Password')).toBeVisible();
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('btalk') ?? '{}'));
  expect(stored.last_page).toBe('/calltree/event/42?tab=open');
});

test('the language switch changes the texts to Thai, and the choice is remembered', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'ไทย' }).click();
  await expect(page.getByRole('heading', { name: 'หน้าแรก', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'ผังการโทร' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'th');
  await page.reload();
  await expect(page.getByRole('heading', { name: 'หน้าแรก', level: 1 })).toBeVisible();
  await page.getByRole('link', { name: 'ผังการโทร' }).click();
  await expect(page.getByRole('heading', { name: 'ผังการโทร', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'English' }).click();
  await expect(page.getByRole('heading', { name: 'Call tree', level: 1 })).toBeVisible();
});
