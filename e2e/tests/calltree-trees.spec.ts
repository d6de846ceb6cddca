import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures.ts';
import { apiAs, browserOf, seeded } from './calltree-helpers.ts';

/** Creates an empty tree through the New tree dialog; answers the tree's dialog that opens. */
async function newEmptyTree(admin: Page, name: string) {
  await admin.getByRole('button', { name: 'New tree' }).click();
  const newTree = admin.getByRole('dialog', { name: 'New tree' });
  await newTree.getByLabel('Name').fill(name);
  await newTree.getByRole('radio', { name: 'Start empty (add people or import a CSV)' }).check();
  await newTree.getByRole('button', { name: 'Create' }).click();
  return admin.getByRole('dialog', { name: `${name} (0 people)` });
}

test('an admin imports a tree from CSV: a preview with per-row errors first, then the export gives it back', async ({
  browser,
  baseURL,
}) => {
  const admin = await browserOf(browser, baseURL!, seeded('admin@btalk.test'), '/calltree');
  const tree = await newEmptyTree(admin, 'Warehouse');
  await expect(tree.getByText('Nobody is in this tree yet.')).toBeVisible();

  await tree.getByRole('tab', { name: 'Import CSV' }).click();
  const csv = tree.getByRole('textbox', { name: 'CSV text' });
  await csv.fill(
    'email,manager email\nsomchai@btalk.test,\nniran@btalk.test,somchai@btalk.test\nnobody@btalk.test,somchai@btalk.test\n',
  );
  await tree.getByRole('button', { name: 'Preview' }).click();
  await expect(tree.getByText('1 row has an error; fix it and preview again.')).toBeVisible();
  const rows = tree.getByRole('table', { name: 'Import preview' }).getByRole('row');
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(3)).toContainText('nobody@btalk.test');
  await expect(rows.nth(3).getByRole('cell').nth(3)).not.toBeEmpty();
  await expect(tree.getByRole('button', { name: "Replace the tree's people" })).toBeDisabled();

  await csv.fill('email,manager email\nsomchai@btalk.test,\nniran@btalk.test,somchai@btalk.test\n');
  await tree.getByRole('button', { name: 'Preview' }).click();
  await expect(tree.getByText('2 rows are ready to import.')).toBeVisible();
  await tree.getByRole('button', { name: "Replace the tree's people" }).click();
  await expect(admin.getByText('The tree was imported: 2 people.')).toBeVisible();
  await expect(admin.getByRole('dialog', { name: 'Warehouse (2 people)' })).toBeVisible();

  const download = admin.waitForEvent('download');
  await admin.getByRole('button', { name: 'Export CSV' }).click();
  const text = readFileSync((await (await download).path())!, 'utf8');
  expect(
    text
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/),
  ).toEqual(['email,manager email', 'somchai@btalk.test,', 'niran@btalk.test,somchai@btalk.test']);
  await admin.context().close();
});

test('an admin refreshes a directory tree: the preview shows who moved before anything changes', async ({
  browser,
  baseURL,
}) => {
  const adminId = seeded('admin@btalk.test');
  const admin = await browserOf(browser, baseURL!, adminId, '/calltree');
  await admin.getByRole('button', { name: 'New tree' }).click();
  const newTree = admin.getByRole('dialog', { name: 'New tree' });
  await newTree.getByLabel('Name').fill('Operations floor');
  await newTree.getByRole('combobox', { name: 'Top person (optional)' }).fill('somchai@');
  await admin.getByRole('option', { name: /<somchai@btalk.test>/ }).click();
  await newTree.getByRole('button', { name: 'Create' }).click();
  const tree = admin.getByRole('dialog', { name: 'Operations floor (9 people)' });
  await expect(tree).toBeVisible();

  // Someone edits the tree away from the directory: Niran is moved to the top.
  const { id: treeId } = (
    await apiAs<Array<{ id: string; name: string }>>(admin, baseURL!, adminId, 'GET', '/calltree/trees')
  ).find((t) => t.name === 'Operations floor')!;
  await apiAs(
    admin,
    baseURL!,
    adminId,
    'PATCH',
    `/calltree/trees/${treeId}/members/${seeded('niran@btalk.test')}`,
    {
      managerId: null,
    },
  );

  await tree.getByRole('tab', { name: 'Refresh from directory' }).click();
  await tree.getByRole('button', { name: 'Preview changes' }).click();
  const moved = tree.getByRole('region', { name: 'Moved (1)' });
  await expect(moved).toContainText('นิรันดร์ โพธิ์ทอง');
  await expect(moved).toContainText('from (top) to สมชาย ใจดี');
  await expect(tree.getByRole('region', { name: 'Joined (0)' })).toHaveCount(0);
  await tree.getByRole('button', { name: 'Apply changes' }).click();
  await expect(admin.getByText('The tree now matches the directory.')).toBeVisible();
  await tree.getByRole('button', { name: 'Preview changes' }).click();
  await expect(tree.getByText('The tree already matches the directory.')).toBeVisible();
  await admin.context().close();
});

test('an admin makes a person an event manager of a tree, who may then start events, and takes it back', async ({
  browser,
  baseURL,
}) => {
  const admin = await browserOf(browser, baseURL!, seeded('admin@btalk.test'), '/calltree');
  const tree = await newEmptyTree(admin, 'Night shift');
  const managers = tree.getByRole('region', { name: 'Event managers' });
  await expect(managers.getByText('No event manager yet.')).toBeVisible();

  await managers.getByRole('combobox', { name: 'Give the role to' }).fill('niran@');
  await admin.getByRole('option', { name: /niran@btalk\.test/ }).click();
  await managers.getByRole('button', { name: 'Make event manager' }).click();
  await expect(managers.getByText('niran@btalk.test')).toBeVisible();

  // Niran, an ordinary member, may now start events on that tree. (Not Malee: the terms test needs
  // a seeded person who has not accepted the terms yet.)
  const niran = await browserOf(browser, baseURL!, seeded('niran@btalk.test'), '/calltree');
  await expect(niran.getByRole('button', { name: 'Start event' })).toBeVisible();

  await managers.getByRole('button', { name: /^Take the event manager role from / }).click();
  await expect(managers.getByText('No event manager yet.')).toBeVisible();
  await niran.reload();
  await expect(niran.getByRole('heading', { name: 'Call tree', level: 1 })).toBeVisible();
  await expect(niran.getByRole('button', { name: 'Start event' })).toHaveCount(0);
});
