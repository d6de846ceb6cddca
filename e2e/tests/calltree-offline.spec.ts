import type { Browser, Page } from '@playwright/test';
import { expect, test } from '../fixtures.ts';
import { insertPerson, serverDataDir } from '../session.ts';
import { apiAs, browserOf, seeded } from './calltree-helpers.ts';

interface History {
  answers: Array<{ clientId: string; optionId: string; answeredAt: string; recordedAt: string }>;
}

interface Queued {
  eventId: string;
  body: { id: string; optionId: string; answeredAt: string };
}

/** An admin's page (only for set-up and checks through the API) and a running drill targeting one new person. */
async function drillFor(browser: Browser, baseURL: string, name: string, title: string) {
  const adminId = seeded('admin@btalk.test');
  const admin = await browserOf(browser, baseURL, adminId);
  const person = insertPerson(serverDataDir(), name, { acceptedTerms: true });
  const { tree } = await apiAs<{ tree: { id: string } }>(admin, baseURL, adminId, 'POST', '/calltree/trees', {
    name: `${name}'s tree`,
    source: 'empty',
  });
  await apiAs(admin, baseURL, adminId, 'POST', `/calltree/trees/${tree.id}/members`, {
    userId: person.id,
    managerId: null,
  });
  const event = await apiAs<{ id: string }>(
    admin,
    baseURL,
    adminId,
    'POST',
    `/calltree/trees/${tree.id}/events`,
    {
      title,
      message: 'Check in, please.',
      kind: 'drill',
    },
  );
  const history = () =>
    apiAs<History>(admin, baseURL, adminId, 'GET', `/calltree/events/${event.id}/people/${person.id}`);
  return { admin, person, event, history };
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

/** Goes offline, dismisses the offline dialog and answers Safe in the banner: the answer is queued. */
async function answerOffline(page: Page, title: string): Promise<Queued> {
  await page.context().setOffline(true);
  const offline = page.getByRole('dialog', { name: "Oops! You're Offline" });
  await expect(offline).toBeVisible();
  await offline.getByRole('button', { name: 'Close' }).click();
  await expect(offline).toHaveCount(0);
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
  expect(await queued(page)).toEqual([]);
  const [answer, ...more] = (await history()).answers;
  expect(more).toHaveLength(0);
  expect(answer!.clientId).toBe(item.body.id);
  // The answer keeps the time it was made, not the time it arrived.
  expect(answer!.answeredAt).toBe(new Date(item.body.answeredAt).toISOString());
  expect(Date.parse(answer!.recordedAt)).toBeGreaterThan(Date.parse(answer!.answeredAt));

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
  await expect(page.getByRole('alert', { name: `Call tree event: ${title}` })).toBeVisible();
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
