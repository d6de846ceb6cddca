import { expect, type Page } from '@playwright/test';

/** Every seeded person's password in the development directory. */
export const DIRECTORY_PASSWORD = 'btalk';

/**
 * Signs in on the development directory's own sign-in page, as a person would: waits for the form,
 * fills Email and Password, and clicks "Sign in".
 */
export async function fillDirectorySignIn(page: Page, email: string, password = DIRECTORY_PASSWORD) {
  await expect(page.getByLabel('Email')).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** The session the app keeps under localStorage `btalk`. */
export async function storedSession(page: Page): Promise<{
  btalk_token: string | null;
  btalk_refresh: string | null;
  aad_token: string | null;
  last_page: string;
  signed_out?: boolean;
}> {
  return page.evaluate(() => JSON.parse(localStorage.getItem('btalk') ?? '{}'));
}
