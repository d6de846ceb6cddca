import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { apiAs } from '../api.ts';
import { expect, test } from '../fixtures.ts';
import { apiPerson, personPage } from '../session.ts';

interface Listed {
  items: Array<{ kind: string; data: Record<string, unknown> }>;
  unreadCount: number;
}

/** Six letters, unique per run: the people written here are found by them and nobody else. */
const tag = () =>
  Array.from(randomUUID().replace(/-/g, '').slice(0, 6), (c) =>
    String.fromCharCode(97 + (Number.parseInt(c, 16) % 26)),
  ).join('');

const post = (page: Page, text: string | RegExp) => page.getByRole('article').filter({ hasText: text });

async function organisationTopic(base: string, token: string, title: string) {
  return apiAs<{ id: string }>(base, token, 'POST', '/topics', { title, visibility: 'organisation' });
}

test('a mention is picked with the keyboard, shows as a name, is sent, and notifies; in a comment too', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const base = baseURL ?? '';
  const t = tag();
  const first = await apiPerson(browser, base, `Somchai${t} Aree`);
  const second = await apiPerson(browser, base, `Somchai${t} Boonmee`);
  const malee = await personPage(browser, base, `Malee ${t}`, { width: 1280, height: 900 });
  const topic = await organisationTopic(base, malee.token, `Mentions ${t}`);
  const page = malee.page;
  await page.goto(`/topics/${topic.id}`);

  const message = page.getByRole('combobox', { name: 'Message' });
  await message.pressSequentially('Please check @Som');
  const list = page.getByRole('listbox', { name: 'People to mention' });
  await expect(list).toBeVisible();
  await expect(message).toHaveAttribute('aria-expanded', 'true');
  // Filters as one types.
  await message.pressSequentially(`chai${t}`);
  await expect(list.getByRole('option')).toHaveCount(2);
  await expect(list.getByRole('option', { name: new RegExp(`Somchai${t} Aree`) })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await message.press('ArrowDown');
  const picked = list.getByRole('option', { name: new RegExp(`Somchai${t} Boonmee`) });
  await expect(picked).toHaveAttribute('aria-selected', 'true');
  await expect(message).toHaveAttribute('aria-activedescendant', (await picked.getAttribute('id')) ?? '');
  await message.press('Enter');
  await expect(list).toBeHidden();
  // The name, never the markup; marked behind the text.
  await expect(message).toHaveValue(`Please check @Somchai${t} Boonmee `);
  await expect(page.getByTestId('mention-highlights').locator('span')).toHaveText(`@Somchai${t} Boonmee`);
  await message.pressSequentially('before noon');
  expect(await message.inputValue()).not.toContain('@[');
  await message.press('Enter');

  const sent = post(page, 'before noon');
  await expect(sent).toContainText(`Please check @Somchai${t} Boonmee before noon`);
  await expect(sent.locator(`[data-mention="${second.id}"]`)).toHaveText(`@Somchai${t} Boonmee`);
  await expect(sent).not.toContainText('@[');
  await expect(message).toHaveValue('');
  await expect
    .poll(async () =>
      (await apiAs<Listed>(base, second.token, 'GET', '/notifications')).items.map((i) => i.kind),
    )
    .toContain('post.mention');
  expect((await apiAs<Listed>(base, first.token, 'GET', '/notifications')).items).toEqual([]);

  // The same in a comment: Tab picks the highlighted person.
  await sent.getByRole('button', { name: 'Comment', exact: true }).click();
  const comment = sent.getByRole('combobox', { name: 'Write a comment' });
  await comment.pressSequentially(`@somchai${t}`);
  await expect(page.getByRole('listbox', { name: 'People to mention' }).getByRole('option')).toHaveCount(2);
  await comment.press('Tab');
  await expect(comment).toHaveValue(`@Somchai${t} Aree `);
  await comment.pressSequentially('can you help?');
  await comment.press('Enter');
  const written = sent.getByRole('listitem', { name: `Comment by Malee ${t}` });
  await expect(written).toContainText(`@Somchai${t} Aree can you help?`);
  await expect(written.locator(`[data-mention="${first.id}"]`)).toBeVisible();
  await expect
    .poll(async () =>
      (await apiAs<Listed>(base, first.token, 'GET', '/notifications')).items.map((i) => i.kind),
    )
    .toContain('post.mention');

  // Editing the post shows names, not markup, and keeps the mention.
  await sent.getByRole('button', { name: 'Post menu' }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog').getByRole('combobox');
  await expect(edit).toHaveValue(`Please check @Somchai${t} Boonmee before noon`);
  // The field is as wide as the dialog: the text stays on one line.
  expect(await edit.evaluate((el) => el.clientWidth / (el.parentElement?.clientWidth ?? 1))).toBeGreaterThan(
    0.9,
  );
  await edit.press('End');
  await edit.pressSequentially(', thanks');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(sent).toContainText(`@Somchai${t} Boonmee before noon, thanks`);
  await expect(sent.locator(`[data-mention="${second.id}"]`)).toBeVisible();
  await malee.context.close();
});

test('a draft with a mention survives leaving the topic and a reload, and goes when sent', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const base = baseURL ?? '';
  const t = tag();
  const kanya = await apiPerson(browser, base, `Kanya${t} Draft`);
  const malee = await personPage(browser, base, `Malee Draft ${t}`, { width: 1280, height: 900 });
  const topic = await organisationTopic(base, malee.token, `Drafts ${t}`);
  const page = malee.page;
  await page.goto(`/topics/${topic.id}`);
  const message = page.getByRole('combobox', { name: 'Message' });
  await message.pressSequentially(`Half written for @Kanya${t}`);
  await expect(page.getByRole('option', { name: new RegExp(`Kanya${t} Draft`) })).toBeVisible();
  await message.press('Enter');
  await message.pressSequentially('more later');
  await expect(message).toHaveValue(`Half written for @Kanya${t} Draft more later`);

  await page.getByRole('link', { name: 'Home' }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto(`/topics/${topic.id}`);
  await expect(message).toHaveValue(`Half written for @Kanya${t} Draft more later`);
  await page.reload();
  await expect(message).toHaveValue(`Half written for @Kanya${t} Draft more later`);
  await expect(page.getByTestId('mention-highlights').locator('span')).toHaveText(`@Kanya${t} Draft`);

  await message.press('Enter');
  const sent = post(page, 'more later');
  await expect(sent.locator(`[data-mention="${kanya.id}"]`)).toHaveText(`@Kanya${t} Draft`);
  await expect(message).toHaveValue('');
  await page.reload();
  await expect(post(page, 'more later')).toBeVisible();
  await expect(message).toHaveValue('');
  await malee.context.close();
});

test('a reaction found by name in the full emoji picker', async ({ browser, baseURL }) => {
  test.setTimeout(60_000);
  const base = baseURL ?? '';
  const t = tag();
  const malee = await personPage(browser, base, `Malee Emoji ${t}`, { width: 1280, height: 900 });
  const topic = await organisationTopic(base, malee.token, `Emoji ${t}`);
  await apiAs(base, malee.token, 'POST', `/topics/${topic.id}/posts`, {
    clientId: randomUUID(),
    body: 'Lunch is here',
  });
  const page = malee.page;
  await page.goto(`/topics/${topic.id}`);
  const lunch = post(page, 'Lunch is here');
  await lunch.getByRole('button', { name: 'React to this post' }).click();
  // The quick reactions stay, above the picker.
  await expect(page.getByRole('group', { name: 'Reactions' }).getByRole('button')).toHaveCount(8);
  const search = page.getByLabel('Search emojis by name');
  await expect(search).toBeFocused();
  await search.pressSequentially('pizza');
  const pizza = page.getByRole('gridcell', { name: 'pizza' });
  await expect(pizza).toBeVisible();
  await pizza.click();
  await expect(lunch.getByRole('button', { name: `🍕 1 reaction: Malee Emoji ${t}` })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  // And with the keyboard: search, into the grid, Enter.
  await lunch.getByRole('button', { name: 'React to this post' }).click();
  await page.getByLabel('Search emojis by name').pressSequentially('rocket');
  await expect(page.getByRole('gridcell', { name: 'rocket' })).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(lunch.getByRole('button', { name: `🚀 1 reaction: Malee Emoji ${t}` })).toBeVisible();
  await malee.context.close();
});

test('in Thai, the emoji picker speaks Thai and finds an emoji by its Thai or English name', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const base = baseURL ?? '';
  const t = tag();
  const malee = await personPage(browser, base, `มาลี ${t}`, { width: 1280, height: 900 });
  const topic = await organisationTopic(base, malee.token, `อีโมจิ ${t}`);
  await apiAs(base, malee.token, 'POST', `/topics/${topic.id}/posts`, {
    clientId: randomUUID(),
    body: 'ข้าวเที่ยงมาแล้ว',
  });
  const page = malee.page;
  await page.goto(`/topics/${topic.id}`);
  await page.getByRole('button', { name: 'ไทย' }).click();
  const lunch = post(page, 'ข้าวเที่ยงมาแล้ว');
  await lunch.getByRole('button', { name: 'แสดงความรู้สึกต่อโพสต์นี้' }).click();
  const search = page.getByLabel('ค้นหาอีโมจิตามชื่อ');
  await expect(search).toBeFocused();
  await expect(page.getByText('สัตว์และธรรมชาติ')).toBeVisible();
  await search.pressSequentially('พิซซ่า');
  await expect(page.getByRole('gridcell', { name: 'พิซซ่า 1 ชิ้น' })).toBeVisible();
  await search.fill('rocket');
  await page.getByRole('gridcell', { name: 'จรวด' }).click();
  await expect(lunch.getByRole('button', { name: `🚀 1 คน: มาลี ${t}` })).toBeVisible();
});
