import { expect, test } from '../fixtures.ts';
import { signInAs, storeSession } from '../session.ts';

test('going offline shows the offline dialog, coming back hides it', async ({ page, context, baseURL }) => {
  await signInAs(page, baseURL ?? '', 'Offline Tester');
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
  const offline = page.getByRole('dialog', { name: "Oops! You're Offline" });
  await expect(offline).toHaveCount(0);
  await context.setOffline(true);
  await expect(offline).toBeVisible();
  await expect(offline.getByText('Please restore your internet connection to continue.')).toBeVisible();
  await context.setOffline(false);
  await expect(offline).toHaveCount(0);
});

test('a signed-in person sees their name in the menu, and can sign out', async ({ page, baseURL }) => {
  await signInAs(page, baseURL ?? '', 'Somchai Jaidee');
  const stored = await page.evaluate(() => localStorage.getItem('btalk') ?? '');
  expect(stored).not.toContain('injected-refresh-token');
  await page.goto('/');
  await page.getByRole('button', { name: 'Account menu' }).click();
  await expect(page.getByRole('menuitem', { name: /Somchai Jaidee/ })).toBeVisible();
  // Not an administrator: no terms administration.
  await expect(page.getByRole('menuitem', { name: 'Manage terms of use' })).toHaveCount(0);
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'You have signed out', level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  const after = await page.evaluate(() => JSON.parse(localStorage.getItem('btalk') ?? '{}'));
  expect(after).toMatchObject({ btalk_token: null, btalk_refresh: null, aad_token: null });
});

test('a session the server refuses, whose refresh fails, goes to /login and on to the directory', async ({
  page,
}) => {
  await page.goto('/__/firebase/init.json');
  await storeSession(page, { accessToken: 'expired-token', refreshToken: 'revoked-refresh-token' });
  const refresh = page.waitForRequest((r) => r.url().endsWith('/api/auth/refresh') && r.method() === 'POST');
  await page.goto('/calltree');
  const body = (await refresh).postDataJSON();
  expect(body).toEqual({
    refreshToken: 'revoked-refresh-token',
    redirectUri: expect.stringMatching(/\/aad\/callback$/),
  });
  // /login signs in again by itself: the directory asks who signs in.
  await expect(page.getByLabel('Email')).toBeVisible();
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('btalk') ?? '{}'));
  expect(stored).toMatchObject({ btalk_token: null, btalk_refresh: null, last_page: '/calltree' });
});

// The server cannot be made to fail on demand, so these answers are given at the HTTP boundary.
test('the error dialog shows "<code> Error Occurred!" and the apology for a numeric detail', async ({
  page,
  baseURL,
}) => {
  await signInAs(page, baseURL ?? '', 'Error Tester');
  // The app signInAs opened is left first: on a busy machine its own `/api/me` could still come after
  // the route below, take the one failure, and leave the next page's answer good (seen on CI).
  await page.goto('about:blank');
  // Only the first answer fails: a later fetch of the same query (a component mounting late on a slow
  // machine) would otherwise open the dialog again after Dismiss, as it should for a failure that lasts.
  await page.route(
    '**/api/me',
    (route) => route.fulfill({ status: 502, contentType: 'text/html', body: '<html>Bad gateway</html>' }),
    { times: 1 },
  );
  await page.goto('/');
  const dialog = page.getByRole('dialog', { name: '502 Error Occurred!' });
  await expect(dialog).toBeVisible();
  await expect(
    dialog.getByText('Apologies for the inconvenience, but we encountered an error. Please try again?'),
  ).toBeVisible();
  expect((await dialog.boundingBox())?.width).toBe(360);
  // Persistent: neither Escape nor a click outside closes it; Dismiss does.
  await page.keyboard.press('Escape');
  await page.mouse.click(5, 400);
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Dismiss' }).click();
  await expect(dialog).toHaveCount(0);
});

test('the error dialog shows the message for a text detail', async ({ page, baseURL }) => {
  await signInAs(page, baseURL ?? '', 'Error Tester');
  // As above: nothing of the app signInAs opened may take the one failure.
  await page.goto('about:blank');
  const message = 'The database is not reachable; try again in a minute.';
  await page.route('**/api/me', (route) => route.fulfill({ status: 503, json: { code: 5030, message } }), {
    times: 1,
  });
  await page.goto('/');
  const dialog = page.getByRole('dialog', { name: 'Error Occurred!' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText(message)).toBeVisible();
  await dialog.getByRole('button', { name: 'Dismiss' }).click();
  await expect(dialog).toHaveCount(0);
});
