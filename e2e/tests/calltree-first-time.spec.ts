import { expect, test } from '../fixtures.ts';
import { browserOf, drillFor } from './calltree-helpers.ts';

test('a first-time person answers a running drill before accepting the terms, then accepts them', async ({
  browser,
  baseURL,
}) => {
  const title = 'Evacuation drill, tower B';
  const { admin, person, history } = await drillFor(browser, baseURL!, 'Nok Firsttime', title, {
    acceptedTerms: false,
  });
  const page = await browserOf(browser, baseURL!, person.id, '/', undefined, { acceptedTerms: false });

  // The terms come first, but the event's banner is right there with them.
  await expect(page).toHaveURL(/\/terms$/);
  await expect(page.getByRole('heading', { name: 'Terms of use', level: 1 })).toBeVisible();
  const banner = page.getByRole('alert', { name: `Call tree event: ${title}` });
  await expect(banner).toBeVisible();
  await expect(banner.getByText('Are you safe? Tap your answer.')).toBeVisible();
  await banner.getByRole('button', { name: 'Safe', exact: true }).click();
  await expect(banner.getByRole('status')).toHaveText('Your answer "Safe" was sent.');
  await expect(banner.getByRole('button', { name: 'Safe', exact: true })).toHaveCount(0);
  await banner.getByRole('button', { name: 'Hide' }).click();
  await expect(banner).toHaveCount(0);
  await expect.poll(async () => (await history()).answers.map((a) => a.optionId)).toEqual(['safe']);
  // Still on the terms, with no error on the way.
  await expect(page).toHaveURL(/\/terms$/);
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await page.getByRole('button', { name: 'Accept' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
  await expect(page.getByRole('alert', { name: `Call tree event: ${title}` })).toHaveCount(0);
  expect((await history()).answers).toHaveLength(1);
  await page.context().close();
  await admin.context().close();
});
