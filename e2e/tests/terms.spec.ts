import type { Browser } from '@playwright/test';
import { fillDirectorySignIn } from '../directory.ts';
import { expect, test } from '../fixtures.ts';

const MALEE = 'malee@btalk.test';
const ADMIN = 'admin@btalk.test';

async function signedInPage(browser: Browser, baseURL: string, email: string) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await page.goto('/');
  await fillDirectorySignIn(page, email);
  return { context, page };
}

test('a new person accepts the terms; a new version brings them back to /terms', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(60_000);
  // A seeded person who never accepted: signing in lands on /terms, not home.
  const user = await signedInPage(browser, baseURL ?? '', MALEE);
  const admin = await signedInPage(browser, baseURL ?? '', ADMIN);
  try {
    const { page } = user;
    await expect(page).toHaveURL(/\/terms$/);
    await expect(page.getByRole('heading', { name: 'Terms of use', level: 1 })).toBeVisible();
    await expect(page.getByText(/^Version 1 · published /)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    await page.getByRole('button', { name: 'Accept' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
    // Having accepted, /terms shows when, and no Accept button.
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Terms of use' }).click();
    await expect(page.getByText(/^You accepted this version on /)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Accept' })).toHaveCount(0);
    await expect(page.getByRole('menuitem', { name: 'Manage terms of use' })).toHaveCount(0);

    // The administrator accepts too if asked (other tests may have accepted for them already),
    // then writes version 2 with a preview, and publishes it.
    const a = admin.page;
    await expect(a.getByRole('heading', { name: /^(Home|Terms of use)$/, level: 1 })).toBeVisible();
    if (new URL(a.url()).pathname === '/terms') await a.getByRole('button', { name: 'Accept' }).click();
    await expect(a.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
    await a.getByRole('button', { name: 'Account menu' }).click();
    await a.getByRole('menuitem', { name: 'Manage terms of use' }).click();
    await expect(a.getByRole('heading', { name: 'Manage terms of use', level: 1 })).toBeVisible();
    const versions = a.getByRole('table', { name: 'Published versions' });
    await expect(versions.getByRole('row')).toHaveCount(2);
    await expect(versions.getByRole('row').nth(1)).toContainText(/^1Current/);
    await expect(versions.getByRole('row').nth(1)).toContainText(/\d+ of \d+ people/);

    await a.getByRole('tab', { name: 'Thai' }).click();
    await a.getByLabel('Title').fill('ข้อกำหนดการใช้งาน ฉบับปรับปรุง');
    await a.getByLabel('Terms (Markdown)').fill('## การเปลี่ยนแปลง\n\nโปรดอ่านอีกครั้ง');
    await a.getByRole('tab', { name: 'English' }).click();
    await a.getByLabel('Title').fill('Terms of use, revised');
    await a
      .getByLabel('Terms (Markdown)')
      .fill(
        '## What changed\n\n- **Photos** of colleagues need their consent.\n\n<img src="x" onerror="window.__pwned = 1">\n\n[a bad link](javascript:window.__pwned=2)',
      );
    await a.getByRole('button', { name: 'Preview' }).click();
    const preview = a.getByRole('region', { name: 'Preview in English' });
    await expect(preview.getByRole('heading', { name: 'What changed', level: 2 })).toBeVisible();
    await expect(preview.getByText('Photos')).toBeVisible();
    await expect(preview.locator('img')).toHaveCount(0);
    await a.getByRole('button', { name: 'Publish version 2' }).click();
    const confirm = a.getByRole('dialog', { name: 'Publish version 2?' });
    await expect(
      confirm.getByText(
        'Everyone, you included, must accept the new version before they can use BTalk again.',
      ),
    ).toBeVisible();
    await confirm.getByRole('button', { name: 'Publish' }).click();
    await expect(a.getByText('Version 2 is published. Everyone will be asked to accept it.')).toBeVisible();
    await expect(versions.getByRole('row').nth(1)).toContainText(/^2Current/);
    await expect(versions.getByRole('row').nth(1)).toContainText(/\D0 of \d+ people/);

    // The person's next action sends them back to /terms, where version 2 waits, rendered safely.
    await page.goto('/calltree');
    await expect(page).toHaveURL(/\/terms$/);
    await expect(page.getByRole('heading', { name: 'Terms of use, revised', level: 2 })).toBeVisible();
    await expect(page.getByText(/^Version 2 · published /)).toBeVisible();
    await expect(page.getByRole('heading', { name: 'What changed', level: 2 })).toBeVisible();
    await expect(page.locator('main img')).toHaveCount(0);
    // The script link is shown as plain text: no element carries a javascript: address.
    await expect(page.getByText('a bad link')).toBeVisible();
    await expect(page.locator('main [href^="javascript" i]')).toHaveCount(0);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    await page.getByRole('button', { name: 'Accept' }).click();
    await expect(page).toHaveURL(/\/calltree$/);
    await expect(page.getByRole('heading', { name: 'Call tree', level: 1 })).toBeVisible();
  } finally {
    await user.context.close();
    await admin.context.close();
  }
});
