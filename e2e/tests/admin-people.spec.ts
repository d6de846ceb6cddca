import { randomUUID } from 'node:crypto';
import { expect, test } from '../fixtures.ts';
import { signInAs } from '../session.ts';

test("an administrator takes another person's admin role away in the People screen", async ({
  page,
  browser,
  baseURL,
}) => {
  // Two browsers signed in at once.
  test.setTimeout(60_000);
  const suffix = randomUUID().slice(0, 6);
  const name = `Nok Helper ${suffix}`;
  // The other administrator, signed in in their own browser.
  const theirs = await browser.newContext();
  const their = await theirs.newPage();
  await signInAs(their, baseURL!, name, { role: 'admin' });
  await their.getByRole('button', { name: 'Account menu' }).click();
  await expect(their.getByRole('menuitem', { name: 'People', exact: true })).toBeVisible();
  await their.keyboard.press('Escape');

  await signInAs(page, baseURL!, `Somjai Admin ${suffix}`, { role: 'admin' });
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'People', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'People', exact: true })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search people by name, e-mail or department' }).fill(name);
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('Administrator');
  await expect(row).toContainText('Directory');

  await row.getByRole('button', { name: `Remove admin: ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Remove the admin role of ${name}?` });
  await expect(dialog).toContainText('directory sync does not give the role back');
  await dialog.getByRole('button', { name: 'Remove admin' }).click();
  await expect(page.getByText(`${name} is no longer an administrator.`)).toBeVisible();
  await expect(row).toContainText('Member');
  await expect(row).toContainText('BTalk');
  await expect(row.getByRole('button', { name: `Make admin: ${name}` })).toBeVisible();

  // Their open session: after a reload the administration item is gone from their menu.
  await their.reload();
  await their.getByRole('button', { name: 'Account menu' }).click();
  await expect(their.getByRole('menuitem', { name: 'Terms of use' })).toBeVisible();
  await expect(their.getByRole('menuitem', { name: 'People', exact: true })).toHaveCount(0);
  await theirs.close();
});

test('the People screen is for administrators only', async ({ page, baseURL }) => {
  await signInAs(page, baseURL!, 'Plain Member');
  await page.goto(`${baseURL}/admin/people`);
  await expect(page.getByText('Only administrators can manage people.')).toBeVisible();
});
