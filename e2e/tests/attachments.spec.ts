import { randomUUID } from 'node:crypto';
import type { Browser, Page } from '@playwright/test';
import { apiAs } from '../api.ts';
import { expect, test } from '../fixtures.ts';
import { startServer } from '../server.ts';
import { signInAs } from '../session.ts';

/** A small but real PDF: the server types files from their content, not their names. */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n' +
    '3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
);

async function personPage(
  browser: Browser,
  baseURL: string,
  name: string,
  { role = 'member', dataDir }: { role?: 'admin' | 'member'; dataDir?: string } = {},
) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const person = await signInAs(page, baseURL, name, { role, ...(dataDir ? { dataDir } : {}) });
  return { context, page, ...person };
}

/** A topic of the person's, opened in their page. */
async function openNewTopic(page: Page, base: string, token: string) {
  const title = `Files ${randomUUID().slice(0, 8)}`;
  const topic = await apiAs<{ id: string }>(base, token, 'POST', '/topics', { title, visibility: 'members' });
  await page.goto(`/topics/${topic.id}`);
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  return topic;
}

const composerFiles = (page: Page) => page.getByRole('list', { name: 'Files to attach' });

test('files that are not pictures show as cards; a PDF opens in the browser’s viewer in a new tab', async ({
  browser,
  baseURL,
}) => {
  const base = baseURL ?? '';
  const { page, token, context } = await personPage(browser, base, 'Kanya Filecard');
  await openNewTopic(page, base, token);

  await page.getByTestId('composer-file-input').setInputFiles([
    { name: 'รายงานประจำเดือน.pdf', mimeType: 'application/pdf', buffer: PDF },
    { name: 'budget.xlsx', mimeType: 'application/octet-stream', buffer: Buffer.alloc(3 * 1024 + 100, 7) },
  ]);
  await expect(composerFiles(page).getByRole('listitem')).toHaveCount(2);
  await expect(composerFiles(page).getByRole('listitem').filter({ hasText: 'Uploading' })).toHaveCount(0);
  await page.getByLabel('Message').fill('This month’s report');
  await page.getByRole('button', { name: 'Post', exact: true }).click();
  const post = page.getByRole('article').filter({ hasText: 'This month’s report' });

  // A card each: the kind and the size in people's words, not a byte count.
  const pdfCard = post.getByRole('group', { name: /^รายงานประจำเดือน\.pdf, PDF document, \d+ bytes$/ });
  await expect(pdfCard).toBeVisible();
  const sheet = post.getByRole('group', { name: 'budget.xlsx, Spreadsheet, 3.1 KB' });
  await expect(sheet).toBeVisible();
  await expect(sheet.getByText('Spreadsheet · 3.1 KB')).toBeVisible();
  await expect(sheet.getByRole('button', { name: 'Open budget.xlsx' })).toHaveCount(0);
  const download = page.waitForEvent('download');
  await sheet.getByRole('button', { name: 'Download budget.xlsx' }).click();
  expect((await download).suggestedFilename()).toBe('budget.xlsx');

  // "Open": a new tab with the PDF itself, which the browser shows in its viewer.
  const tabOpened = context.waitForEvent('page');
  await pdfCard.getByRole('button', { name: 'Open รายงานประจำเดือน.pdf' }).click();
  const tab = await tabOpened;
  await expect.poll(() => tab.url()).toMatch(/^blob:/);
  expect(await tab.evaluate(() => document.contentType)).toBe('application/pdf');
  expect(await tab.evaluate(() => window.opener)).toBeNull();
  await context.close();
});

test('refused and oversized uploads are told in sentences, in English and Thai', async ({
  browser,
  baseURL,
}) => {
  const base = baseURL ?? '';
  const { page, token, context } = await personPage(browser, base, 'Somsak Uploader');
  await openNewTopic(page, base, token);
  let uploads = 0;
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/attachments')) uploads += 1;
  });

  // A program, even named as a document, is refused by the server (executables are refused by default).
  const program = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(1022)]);
  await page.getByTestId('composer-file-input').setInputFiles([
    { name: 'setup.exe', mimeType: 'application/octet-stream', buffer: program },
    { name: 'minutes.pdf', mimeType: 'application/pdf', buffer: program },
  ]);
  const items = composerFiles(page).getByRole('listitem');
  await expect(items.filter({ hasText: 'setup.exe: Files of this type are not allowed.' })).toBeVisible();
  await expect(items.filter({ hasText: 'minutes.pdf: Files of this type are not allowed.' })).toBeVisible();
  expect(uploads).toBe(2);

  // Over the largest size: refused here, before a byte is sent.
  await page.getByTestId('composer-file-input').setInputFiles({
    name: 'video.mp4',
    mimeType: 'video/mp4',
    buffer: Buffer.alloc(25 * 1024 * 1024 + 1),
  });
  await expect(
    items.filter({ hasText: 'video.mp4: This file is larger than 25 MB, the largest allowed.' }),
  ).toBeVisible();
  expect(uploads).toBe(2);
  await expect(composerFiles(page)).not.toContainText(/MAX_UPLOAD|26214400|body\.file/);

  // The same in Thai.
  await page.evaluate(() => localStorage.setItem('btalk_language', 'th'));
  await page.reload();
  await page.getByTestId('composer-file-input').setInputFiles({
    name: 'run.bat',
    mimeType: 'application/octet-stream',
    buffer: Buffer.from('@echo off'),
  });
  await expect(
    page
      .getByRole('list', { name: 'ไฟล์ที่จะแนบ' })
      .getByRole('listitem')
      .filter({ hasText: 'run.bat: ไม่อนุญาตให้แนบไฟล์ประเภทนี้' }),
  ).toBeVisible();
  await context.close();
});

test('an administrator changes the refused file types on the File uploads screen, and uploads follow', async ({
  browser,
}) => {
  test.setTimeout(60_000);
  // A server of its own: the list is for the whole organisation.
  const server = await startServer();
  try {
    const admin = await personPage(browser, server.url, 'Orapin Admin', {
      role: 'admin',
      dataDir: server.dataDir,
    });
    const page = admin.page;
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'File uploads' }).click();
    await expect(page.getByRole('heading', { name: 'File uploads', level: 1 })).toBeVisible();
    await expect(page.getByText('This is the default list: programs, installers and scripts.')).toBeVisible();
    const list = page.getByRole('list', { name: 'Refused file types' });
    await expect(list.getByRole('listitem').filter({ hasText: '.exe' })).toBeVisible();

    // A bad entry is explained; zip is added, bat taken off.
    await page.getByLabel('File type to refuse').fill('*.zip');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(page.getByText('Type an extension of letters and digits, such as exe.')).toBeVisible();
    await page.getByLabel('File type to refuse').fill('.ZIP');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(list.getByRole('listitem').filter({ hasText: '.zip' })).toBeVisible();
    await list.getByRole('button', { name: 'Remove .bat' }).click();
    await expect(list.getByRole('listitem').filter({ hasText: '.bat' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('The refused file types were saved.')).toBeVisible();
    await expect(page.getByText(/^Last changed by Orapin Admin on /)).toBeVisible();
    await page.reload();
    await expect(list.getByRole('listitem').filter({ hasText: '.zip' })).toBeVisible();

    // A member's uploads follow the new list at once.
    const member = await personPage(browser, server.url, 'Pongsak Member', { dataDir: server.dataDir });
    await openNewTopic(member.page, server.url, member.token);
    await member.page.getByTestId('composer-file-input').setInputFiles([
      { name: 'photos.zip', mimeType: 'application/zip', buffer: Buffer.from('PK\u0003\u0004 not really') },
      { name: 'tidy.bat', mimeType: 'application/octet-stream', buffer: Buffer.from('@echo off') },
    ]);
    const items = composerFiles(member.page).getByRole('listitem');
    await expect(items.filter({ hasText: 'photos.zip: Files of this type are not allowed.' })).toBeVisible();
    await expect(items.filter({ hasText: 'tidy.bat' })).toHaveCount(1);
    await expect(items.filter({ hasText: /tidy\.bat:|Uploading tidy/ })).toHaveCount(0);

    // Someone who is not an administrator has no such menu item, and the screen says it is not theirs.
    await member.page.getByRole('button', { name: 'Account menu' }).click();
    await expect(member.page.getByRole('menuitem', { name: 'File uploads' })).toHaveCount(0);
    await member.page.keyboard.press('Escape');
    await member.page.goto('/admin/uploads');
    await expect(
      member.page.getByText('Only administrators can change which files may be uploaded.'),
    ).toBeVisible();
    await admin.context.close();
    await member.context.close();
  } finally {
    await server.stop();
  }
});
