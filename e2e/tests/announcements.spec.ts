import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Locator, Page } from '@playwright/test';
import { apiAs } from '../api.ts';
import { parseCsv } from '../csv.ts';
import { expect as baseExpect, test } from '../fixtures.ts';
import { accessTokenFor, insertPerson, serverDataDir } from '../session.ts';
import { browserOf } from './calltree-helpers.ts';

// As on CI everywhere: this machine may be busy, and a first screen can take more than the local 5 s.
const expect = baseExpect.configure({ timeout: 15_000 });
/** A screen's first load (its chunks, the service worker taking control): a hang guard, not a speed check. */
const FIRST_LOAD = { timeout: 30_000 };

/** Places people in the directory's manager chain and departments, as a directory sync would. */
function placeInDirectory(people: Array<{ id: string; managerId?: string; department?: string }>) {
  const db = new DatabaseSync(path.join(serverDataDir(), 'btalk.sqlite'));
  db.exec('PRAGMA busy_timeout = 5000');
  try {
    for (const p of people) {
      if (p.managerId)
        db.prepare(
          'UPDATE users SET manager_subject = (SELECT subject FROM users WHERE id = ?) WHERE id = ?',
        ).run(p.managerId, p.id);
      if (p.department) db.prepare('UPDATE users SET department = ? WHERE id = ?').run(p.department, p.id);
    }
  } finally {
    db.close();
  }
}

/** One of the report's figures (Sent, Seen, Acknowledged, Not yet). */
const figure = (page: Page, name: string): Locator =>
  page.getByRole('region', { name: 'Totals' }).getByRole('region', { name, exact: true }).locator('output');

test('the author marks a post important, three readers acknowledge, the roll-up follows live and the CSV matches it', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const base = baseURL!;
  const dataDir = serverDataDir();
  const tag = randomUUID().slice(0, 5);
  const name = (first: string) => `${first} ${tag}`;

  // The author owns a members-only topic of eight readers: a manager chain Mana > Wichai > three
  // people, two more under Mana in Finance, and Dao with no manager.
  const author = insertPerson(dataDir, name('Ann Author'));
  const mana = insertPerson(dataDir, name('Mana'));
  const wichai = insertPerson(dataDir, name('Wichai'));
  const niran = insertPerson(dataDir, name('Niran'));
  const pim = insertPerson(dataDir, name('Pim'));
  const sarah = insertPerson(dataDir, name('Sarah'));
  const kanya = insertPerson(dataDir, name('Kanya'));
  const lek = insertPerson(dataDir, name('Lek'));
  const dao = insertPerson(dataDir, name('Dao'));
  placeInDirectory([
    { id: wichai.id, managerId: mana.id },
    { id: niran.id, managerId: wichai.id },
    { id: pim.id, managerId: wichai.id },
    { id: sarah.id, managerId: wichai.id },
    { id: kanya.id, managerId: mana.id, department: 'Finance' },
    { id: lek.id, managerId: mana.id, department: 'Finance' },
  ]);
  const readers = [mana, wichai, niran, pim, sarah, kanya, lek, dao];
  const token = accessTokenFor(dataDir, base, author.id);
  const topic = await apiAs<{ id: string }>(base, token, 'POST', '/topics', {
    title: `Site safety ${tag}`,
    visibility: 'members',
  });
  await apiAs(base, token, 'POST', `/topics/${topic.id}/members`, { userIds: readers.map((r) => r.id) });
  const text = `The fire exits of building B change on Monday ${tag}`;
  const post = await apiAs<{ id: string; number: number }>(base, token, 'POST', `/topics/${topic.id}/posts`, {
    clientId: randomUUID(),
    body: text,
  });

  // The author marks the post important from its menu.
  const authorPage = await browserOf(browser, base, author.id, `/topics/${topic.id}`, {
    width: 1280,
    height: 1400,
  });
  const article = authorPage.getByRole('article').filter({ hasText: text });
  await expect(article).toBeVisible(FIRST_LOAD);
  await article.getByRole('button', { name: 'Post menu' }).click();
  await authorPage.getByRole('menuitem', { name: 'Request acknowledgement' }).click();
  const dialog = authorPage.getByRole('dialog', { name: 'Request acknowledgement' });
  await expect(dialog.getByRole('switch', { name: 'Urgent' })).not.toBeChecked();
  await dialog.getByRole('combobox', { name: 'Remind those who have not acknowledged' }).click();
  await authorPage.getByRole('option', { name: 'After 1 day' }).click();
  await dialog.getByRole('button', { name: 'Request' }).click();
  await expect(dialog).toBeHidden();
  const marker = article.getByRole('region', { name: 'Important: acknowledgement requested' });
  await expect(marker).toContainText('0 of 8 acknowledged');
  // The author is not asked to acknowledge their own post.
  await expect(marker.getByRole('button', { name: 'Acknowledge' })).toHaveCount(0);
  await marker.getByRole('link', { name: 'Who has read it' }).click();
  await expect(authorPage.getByRole('heading', { level: 1, name: 'Acknowledgements' })).toBeVisible(
    FIRST_LOAD,
  );
  await expect(authorPage).toHaveURL(new RegExp(`/topics/${topic.id}/posts/${post.id}/acknowledgements$`));
  await expect(figure(authorPage, 'Sent')).toHaveText('8', FIRST_LOAD);
  await expect(figure(authorPage, 'Acknowledged')).toHaveText('0');

  // Niran and Kanya acknowledge from Home's Important strip, Pim in the topic, each in their own browser.
  for (const reader of [niran, kanya]) {
    const page = await browserOf(browser, base, reader.id, '/');
    const strip = page.getByRole('list', { name: 'Important' });
    const row = strip.getByRole('listitem').filter({ hasText: text });
    await expect(row).toBeVisible(FIRST_LOAD);
    await expect(row.getByRole('link')).toHaveAttribute('href', `/topics/${topic.id}#post-${post.number}`);
    await row.getByRole('button', { name: 'Acknowledge' }).click();
    await expect(page.getByRole('list', { name: 'Important' })).toHaveCount(0);
    await page.context().close();
  }
  const pimPage = await browserOf(browser, base, pim.id, `/topics/${topic.id}`);
  await expect(pimPage.getByRole('region', { name: 'Important posts to acknowledge' })).toContainText(
    text,
    FIRST_LOAD,
  );
  const pimPost = pimPage.getByRole('article').filter({ hasText: text });
  const pimMarker = pimPost.getByRole('region', { name: 'Important: acknowledgement requested' });
  await expect(pimMarker).toContainText('2 of 8 acknowledged');
  // On the screen for more than a second: seen.
  await pimPage.waitForTimeout(1500);
  await pimMarker.getByRole('button', { name: 'Acknowledge' }).click();
  await expect(pimMarker).toContainText('Acknowledged');
  await expect(pimMarker).toContainText('3 of 8 acknowledged');
  await expect(pimPage.getByRole('region', { name: 'Important posts to acknowledge' })).toHaveCount(0);
  await pimPage.context().close();

  // The author's roll-up followed without a reload.
  await expect(authorPage.getByText('3 of 8 acknowledged')).toBeVisible();
  await expect(figure(authorPage, 'Acknowledged')).toHaveText('3');
  await expect(figure(authorPage, 'Not yet')).toHaveText('5');
  await expect
    .poll(async () => Number(await figure(authorPage, 'Seen').textContent()))
    .toBeGreaterThanOrEqual(3);
  // By branch: Wichai's branch is Wichai and his three reports (two acknowledged); Mana's everyone under him.
  const branches = authorPage.getByRole('list', { name: 'By manager branch' });
  await expect(
    branches.getByRole('button', { name: `${name('Wichai')}: 2 of 4 acknowledged` }),
  ).toBeVisible();
  await expect(branches.getByRole('button', { name: `${name('Mana')}: 3 of 7 acknowledged` })).toBeVisible();
  const departments = authorPage.getByRole('table', { name: 'By department' });
  await expect(departments.getByRole('row', { name: /^Finance/ })).toContainText('1');

  // The people who have not acknowledged, with their managers.
  const people = authorPage.getByRole('region', { name: 'People' }).getByRole('article');
  await expect(people).toHaveCount(5);
  const pendingNames = await people.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
  expect([...pendingNames].sort()).toEqual(
    [name('Mana'), name('Wichai'), name('Sarah'), name('Lek'), name('Dao')].sort(),
  );
  await expect(authorPage.getByRole('article', { name: name('Sarah') })).toContainText(
    `Manager: ${name('Wichai')}`,
  );
  await expect(authorPage.getByRole('article', { name: name('Dao') })).toContainText('No manager');
  // Choosing Wichai's branch lists only those under him who have not acknowledged.
  await branches.getByRole('button', { name: `${name('Wichai')}: 2 of 4 acknowledged` }).click();
  await expect(people).toHaveCount(2);
  await expect(authorPage.getByRole('article', { name: name('Sarah') })).toBeVisible();
  await authorPage.getByRole('button', { name: 'Show every branch' }).click();
  await authorPage.getByRole('button', { name: 'Everyone' }).click();
  await expect(people).toHaveCount(8);
  const screenNames = await people.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));

  // The CSV matches the screen: the same people in the same order, the three acknowledgements.
  const download = authorPage.waitForEvent('download');
  await authorPage.getByRole('button', { name: 'Download CSV' }).click();
  const file = await (await download).path();
  const bytes = readFileSync(file!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const [header, ...rows] = parseCsv(bytes.subarray(3).toString('utf8'));
  expect(header).toEqual(['Name', 'Email', 'Department', 'Manager', 'Seen', 'Acknowledged']);
  expect(rows.map((r) => r[0])).toEqual(screenNames);
  const acknowledgedRows = rows.filter((r) => r[5] !== '').map((r) => r[0]);
  expect(acknowledgedRows.sort()).toEqual([name('Kanya'), name('Niran'), name('Pim')].sort());
  expect(rows.find((r) => r[0] === name('Sarah'))![3]).toBe(name('Wichai'));
  // Local times, as the screen's clock shows them.
  expect(rows.find((r) => r[0] === name('Pim'))![5]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  await authorPage.context().close();
});
