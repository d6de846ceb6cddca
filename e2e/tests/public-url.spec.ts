import { fillDirectorySignIn, storedSession } from '../directory.ts';
import { expect, test } from '../fixtures.ts';
import { acceptTermsFor, serverDataDir } from '../session.ts';

/** No other test signs in as him. */
const SUPACHAI = 'supachai@btalk.test';

/** The server's address at its other loopback name: localhost for 127.0.0.1, and the reverse. */
function otherLoopbackName(url: string): string {
  const other = new URL(url);
  other.hostname = other.hostname === '127.0.0.1' ? 'localhost' : '127.0.0.1';
  return other.origin;
}

test('the address a person opens just works: the other loopback name goes to PUBLIC_URL, and signing in works there', async ({
  page,
  baseURL,
}) => {
  // Generous: a first sign-in on a loaded 2-core machine (the directory, Graph, the app's chunks).
  test.setTimeout(90_000);
  acceptTermsFor(serverDataDir(), SUPACHAI);
  // The server's PUBLIC_URL is the address global-setup gave it (http://127.0.0.1:<port>).
  const publicUrl = new URL(baseURL!).origin;
  const other = otherLoopbackName(publicUrl);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));

  const opened = await page.goto(`${other}/?from=bookmark`);
  const first = opened?.request().redirectedFrom();
  expect(first?.url()).toBe(`${other}/?from=bookmark`);
  expect((await first?.response())?.status()).toBe(308);
  expect(opened?.url()).toBe(`${publicUrl}/?from=bookmark`);

  // No session: the app sends the browser to the directory's real form, then back, signed in.
  await expect(page.getByLabel('Email')).toBeVisible({ timeout: 30_000 });
  await fillDirectorySignIn(page, SUPACHAI);
  await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible({ timeout: 30_000 });
  expect(new URL(page.url()).origin).toBe(publicUrl);
  expect((await storedSession(page)).btalk_token).toBeTruthy();
  // No "Check your connection" or any other error dialog on the way.
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(errors).toEqual([]);
});
