import { createECDH, randomBytes } from 'node:crypto';
import { apiAs } from '../api.ts';
import { expect, test } from '../fixtures.ts';
import { signInAs } from '../session.ts';

test('notification settings: opened from the user menu, kept after a reload, Teams explained', async ({
  page,
  baseURL,
}) => {
  await signInAs(page, baseURL ?? '', 'Malee Settings');
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Notification settings' }).click();
  await expect(page).toHaveURL(/\/settings\/notifications$/);
  await expect(page.getByRole('heading', { name: 'Notification settings', level: 1 })).toBeVisible();
  for (const section of ['Channels', 'What reaches you', 'Quiet hours']) {
    await expect(page.getByRole('heading', { name: section, level: 2 })).toBeVisible();
  }
  // The app's own list is always on.
  const inApp = page.getByRole('switch', { name: 'In the app' });
  await expect(inApp).toBeChecked();
  await expect(inApp).toBeDisabled();

  const comments = page.getByRole('switch', { name: 'Comments on posts you follow' });
  await expect(comments).toBeChecked();
  const patched = page.waitForResponse(
    (r) => r.url().endsWith('/api/me/notification-settings') && r.request().method() === 'PATCH',
  );
  await comments.click();
  expect((await patched).ok()).toBe(true);
  await expect(comments).not.toBeChecked();

  const quiet = page.getByRole('region', { name: 'Quiet hours' });
  await expect(quiet).toContainText('Call-tree alerts still come through');
  await quiet.getByRole('switch', { name: 'Use quiet hours' }).click();
  await quiet.getByLabel('From').fill('21:30');
  await quiet.getByLabel('To').fill('06:45');
  await quiet.getByRole('combobox', { name: 'Time zone' }).selectOption('Asia/Tokyo');
  await expect(quiet).toContainText('From 21:30 until 06:45 the next morning.');
  await quiet.getByRole('button', { name: 'Save quiet hours' }).click();
  await expect(page.getByText('Quiet hours saved.')).toBeVisible();

  await page.reload();
  await expect(page.getByRole('switch', { name: 'Comments on posts you follow' })).not.toBeChecked();
  await expect(page.getByRole('switch', { name: 'Mentions' })).toBeChecked();
  const kept = page.getByRole('region', { name: 'Quiet hours' });
  await expect(kept.getByRole('switch', { name: 'Use quiet hours' })).toBeChecked();
  await expect(kept.getByLabel('From')).toHaveValue('21:30');
  await expect(kept.getByLabel('To')).toHaveValue('06:45');
  await expect(kept.getByRole('combobox', { name: 'Time zone' })).toHaveValue('Asia/Tokyo');

  // Teams: SPEC.md section 4's notification info dialog, with the two steps while not connected.
  await page.getByRole('button', { name: 'Set up Teams' }).click();
  const dialog = page.getByRole('dialog', { name: 'Enable notifications' });
  await expect(dialog).toContainText('To receive post notifications in Microsoft Teams:');
  await expect(dialog.getByRole('listitem')).toHaveText(['Click the Open app button.', 'Click Add.']);
  await expect(dialog.getByText('Open app', { exact: true })).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);
});

test('quiet hours: a missing time, and the server’s refusal, are shown next to their field', async ({
  page,
  baseURL,
}) => {
  await signInAs(page, baseURL ?? '', 'Malee Settings Error');
  await page.goto('/settings/notifications');
  const quiet = page.getByRole('region', { name: 'Quiet hours' });
  await quiet.getByRole('switch', { name: 'Use quiet hours' }).click();
  await quiet.getByLabel('From').fill('');
  await quiet.getByRole('button', { name: 'Save quiet hours' }).click();
  await expect(quiet.getByText('Enter a time such as 22:00.')).toBeVisible();
  await expect(quiet.getByLabel('From')).toHaveAttribute('aria-invalid', 'true');

  // A 400 with details, as the server answers one: the reason goes under the field it names.
  await page.route('**/api/me/notification-settings', (route) =>
    route.request().method() === 'PATCH'
      ? route.fulfill({
          status: 400,
          contentType: 'application/json',
          body: JSON.stringify({
            code: 4000,
            message: 'body.quietHours.timeZone: must be an IANA time zone such as Asia/Bangkok',
            details: [
              { field: 'body.quietHours.timeZone', reason: 'must be an IANA time zone such as Asia/Bangkok' },
            ],
          }),
        })
      : route.fallback(),
  );
  await quiet.getByLabel('From').fill('22:00');
  await quiet.getByRole('button', { name: 'Save quiet hours' }).click();
  await expect(quiet.getByText('must be an IANA time zone such as Asia/Bangkok')).toBeVisible();
  await expect(quiet.getByRole('combobox', { name: 'Time zone' })).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('browser notifications: a blocked permission is explained', async ({ page, baseURL }) => {
  // Headless Chromium answers the permission prompt with "denied", as a person who blocked it would.
  await signInAs(page, baseURL ?? '', 'Malee Push Blocked');
  await page.goto('/settings/notifications');
  const push = page.getByRole('switch', { name: 'Browser notifications' });
  await expect(push).toBeEnabled();
  await push.click();
  await expect(page.getByRole('alert')).toContainText('Notifications are blocked for BTalk in this browser.');
  await expect(push).not.toBeChecked();
});

test('browser notifications: switching on subscribes this browser with the server, off forgets it', async ({
  browser,
  baseURL,
}) => {
  // Chromium has no push service here: PushManager answers with a made-up subscription whose keys
  // are real (a P-256 public key and a 16-byte secret), so the server takes it as a browser's.
  const base = baseURL ?? '';
  const context = await browser.newContext({ baseURL: base });
  await context.grantPermissions(['notifications'], { origin: base });
  const subscription = {
    endpoint: `https://push.example.test/send/${randomBytes(8).toString('hex')}`,
    expirationTime: null,
    keys: {
      p256dh: createECDH('prime256v1').generateKeys().toString('base64url'),
      auth: randomBytes(16).toString('base64url'),
    },
  };
  await context.addInitScript((json) => {
    let current: PushSubscription | null = null;
    const fake = {
      endpoint: json.endpoint,
      options: { applicationServerKey: null },
      toJSON: () => json,
      unsubscribe: async () => {
        current = null;
        return true;
      },
    } as unknown as PushSubscription;
    PushManager.prototype.subscribe = async () => {
      current = fake;
      return fake;
    };
    PushManager.prototype.getSubscription = async () => current;
  }, subscription);
  const page = await context.newPage();
  try {
    const malee = await signInAs(page, base, 'Malee Push');
    await page.goto('/settings/notifications');
    const push = page.getByRole('switch', { name: 'Browser notifications' });
    const settings = () =>
      apiAs<{ channels: { push: boolean }; pushSubscriptions: number }>(
        base,
        malee.token,
        'GET',
        '/me/notification-settings',
      );
    // The switch turns at once and shows "Updating..." until the server has it: the server is asked
    // until it says so (checking right after the click could run before the change even started).
    await push.click();
    await expect(push).toBeChecked();
    await expect.poll(settings).toMatchObject({ channels: { push: true }, pushSubscriptions: 1 });
    await expect(page.getByText('Updating browser notifications...')).toHaveCount(0);
    await expect(push).toBeChecked();
    await expect(push).toBeEnabled();
    await expect(page.getByRole('alert')).toHaveCount(0);

    await push.click();
    await expect(push).not.toBeChecked();
    await expect.poll(settings).toMatchObject({ channels: { push: false }, pushSubscriptions: 0 });
    await expect(page.getByText('Updating browser notifications...')).toHaveCount(0);
    await expect(push).not.toBeChecked();
    await expect(push).toBeEnabled();
  } finally {
    await context.close();
  }
});

for (const [name, width, height] of [
  ['desktop', 1280, 1000],
  ['phone', 390, 844],
] as const) {
  test(`the notification settings screen at ${name} width`, async ({ browser, baseURL }) => {
    const context = await browser.newContext({ viewport: { width, height } });
    const page = await context.newPage();
    await signInAs(page, baseURL ?? '', 'Malee Layout');
    await page.goto('/settings/notifications');
    await expect(page.getByRole('heading', { name: 'Quiet hours' })).toBeVisible();
    if (process.env.BTALK_SCREENSHOTS) {
      await page.screenshot({
        path: `${process.env.BTALK_SCREENSHOTS}/settings-${name}.png`,
        fullPage: true,
      });
    }
    // Nothing of the screen is wider than it.
    const main = page.getByRole('main');
    const overflow = await main.evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect((await main.boundingBox())?.width).toBeLessThanOrEqual(width);
    await context.close();
  });
}
