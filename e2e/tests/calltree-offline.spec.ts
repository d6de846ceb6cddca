import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures.ts';
import { browserOf, drillFor } from './calltree-helpers.ts';

interface Queued {
  eventId: string;
  body: { id: string; optionId: string; answeredAt: string };
}

/** The answers waiting in the device's queue (IndexedDB, idb-keyval's store). */
function queued(page: Page): Promise<Queued[]> {
  return page.evaluate(
    () =>
      new Promise<Queued[]>((resolve, reject) => {
        const open = indexedDB.open('keyval-store');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const get = open.result
            .transaction('keyval')
            .objectStore('keyval')
            .get('btalk-calltree-answer-queue');
          get.onsuccess = () => resolve((get.result as Queued[] | undefined) ?? []);
          get.onerror = () => reject(get.error);
        };
      }),
  );
}

/**
 * Goes offline and answers Safe in the banner: the answer is queued. With an event waiting, the
 * offline message shows in the page above the banner instead of the dialog, so nothing covers Safe
 * (Playwright's click fails on a button under a modal's backdrop).
 */
async function answerOffline(page: Page, title: string): Promise<Queued> {
  await page.context().setOffline(true);
  const offline = page.getByRole('alert', { name: "Oops! You're Offline" });
  await expect(offline).toBeVisible();
  await expect(offline).toContainText('Please restore your internet connection to continue.');
  await expect(page.getByRole('dialog', { name: "Oops! You're Offline" })).toHaveCount(0);
  const banner = page.getByRole('alert', { name: `Call tree event: ${title}` });
  await banner.getByRole('button', { name: 'Safe', exact: true }).click();
  await expect(banner.getByRole('status')).toHaveText(
    'Your answer "Safe" is queued on this device and will be sent when you are back online.',
  );
  const [item, ...more] = await queued(page);
  expect(more).toHaveLength(0);
  return item!;
}

test('an answer made offline is queued with its time and sent exactly once when the connection returns', async ({
  browser,
  baseURL,
}) => {
  const title = 'Flood check, warehouse 2';
  const { admin, person, event, history } = await drillFor(browser, baseURL!, 'Ploy Offline', title);
  const page = await browserOf(browser, baseURL!, person.id);
  await expect(page.getByRole('alert', { name: `Call tree event: ${title}` })).toBeVisible();

  const item = await answerOffline(page, title);
  expect(item.eventId).toBe(event.id);
  expect(item.body.optionId).toBe('safe');
  // Nothing reached the server while offline.
  await page.waitForTimeout(1_000);
  expect((await history()).answers).toHaveLength(0);

  await page.context().setOffline(false);
  const banner = page.getByRole('alert', { name: `Call tree event: ${title}` });
  await expect(banner.getByRole('status')).toHaveText('Your answer "Safe" was sent.');
  await expect(page.getByRole('alert', { name: "Oops! You're Offline" })).toHaveCount(0);
  expect(await queued(page)).toEqual([]);
  const [answer, ...more] = (await history()).answers;
  expect(more).toHaveLength(0);
  expect(answer!.clientId).toBe(item.body.id);
  // The answer keeps the time it was made, not the time it arrived.
  expect(answer!.answeredAt).toBe(new Date(item.body.answeredAt).toISOString());
  expect(Date.parse(answer!.recordedAt)).toBeGreaterThan(Date.parse(answer!.answeredAt));

  // Nothing waits for an answer any more: a new loss of connection shows the dialog, as everywhere.
  await page.context().setOffline(true);
  const dialog = page.getByRole('dialog', { name: "Oops! You're Offline" });
  await expect(dialog).toBeVisible();
  await expect(page.getByRole('alert', { name: "Oops! You're Offline" })).toHaveCount(0);
  await page.context().setOffline(false);
  await expect(dialog).toHaveCount(0);

  // A reload sends nothing again.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
  await page.waitForTimeout(1_000);
  expect((await history()).answers).toHaveLength(1);
  await page.context().close();
  await admin.context().close();
});

test('an answer queued when the app was closed offline is sent when the app starts again', async ({
  browser,
  baseURL,
}) => {
  const title = 'Power cut, building C';
  const { admin, person, history } = await drillFor(browser, baseURL!, 'Somsri Offline', title);
  const page = await browserOf(browser, baseURL!, person.id);
  await expect(page.getByRole('alert', { name: `Call tree event: ${title}` })).toBeVisible({
    timeout: 15_000,
  });
  const item = await answerOffline(page, title);
  const context = page.context();
  await page.close();
  await context.setOffline(false);
  expect((await history()).answers).toHaveLength(0);

  const again = await context.newPage();
  await again.goto('/');
  await expect.poll(async () => (await history()).answers.map((a) => a.clientId)).toEqual([item.body.id]);
  await expect(again.getByRole('alert', { name: `Call tree event: ${title}` })).toHaveCount(0);
  expect(await queued(again)).toEqual([]);
  await context.close();
  await admin.context().close();
});
