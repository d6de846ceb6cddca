import { randomUUID } from 'node:crypto';
import type { Browser, Page } from '@playwright/test';
import { apiAs } from '../api.ts';
import { expect, test } from '../fixtures.ts';
import { acceptTerms, accessTokenFor, serverDataDir, storeSession, userIdByEmail } from '../session.ts';

// People of the development directory (apps/server/src/directory/people.json), synced into BTalk
// when the server starts: their names are shown in Thai, their Latin-script names come from the
// directory's given name and surname.
const KANYA = { email: 'kanya@btalk.test', name: 'กัญญา รัตนากร' };
const SOMCHAI = { email: 'somchai@btalk.test', name: 'สมชาย ใจดี' };
const MALEE = { email: 'malee@btalk.test', name: 'มาลี ศรีสุข' };

/** A directory person signed in in their own browser context (own tab, own realtime connection). */
async function directoryPersonPage(browser: Browser, baseURL: string, email: string) {
  const dataDir = serverDataDir();
  const id = userIdByEmail(dataDir, email);
  acceptTerms(dataDir, id);
  const token = accessTokenFor(dataDir, baseURL, id);
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${baseURL}/__/firebase/init.json`);
  await storeSession(page, { accessToken: token, refreshToken: 'injected-refresh-token' });
  return { context, page, id, token };
}

/** The bell, by its name: "Notifications" or "Notifications, N unread". */
const bell = (page: Page) => page.getByRole('button', { name: /^Notifications(, \d+ unread)?$/ });

test('a profile card starts a direct conversation that reaches the other person live, on Home and under the bell', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const base = baseURL ?? '';
  const kanya = await directoryPersonPage(browser, base, KANYA.email);
  const somchai = await directoryPersonPage(browser, base, SOMCHAI.email);
  const maleeId = userIdByEmail(serverDataDir(), MALEE.email);
  const word = randomUUID().slice(0, 8);

  // Somchai writes in an organisation-wide topic; Kanya reads it.
  const topic = await apiAs<{ id: string }>(base, somchai.token, 'POST', '/topics', {
    title: `Site visit ${word}`,
    visibility: 'organisation',
  });
  await apiAs(base, somchai.token, 'POST', `/topics/${topic.id}/posts`, {
    clientId: randomUUID(),
    body: `Who joins the site visit ${word}?`,
  });
  // Somchai waits on Home.
  await somchai.page.goto('/');
  await expect(somchai.page.getByRole('status', { name: 'Live updates on' })).toBeVisible();
  await expect(somchai.page.getByRole('heading', { name: 'Direct messages' })).toBeVisible();

  const k = kanya.page;
  await k.goto(`/topics/${topic.id}`);
  const post = k.getByRole('article').filter({ hasText: `Who joins the site visit ${word}?` });
  await post.getByRole('button', { name: SOMCHAI.name, exact: true }).click();

  // The card: names in Thai and English, job, department, manager, phone, e-mail, Teams.
  const card = k.getByRole('dialog', { name: SOMCHAI.name });
  await expect(card.getByText('Somchai Jaidee')).toBeVisible();
  await expect(card.getByText('Operations Manager')).toBeVisible();
  await expect(card.getByText('Operations', { exact: true })).toBeVisible();
  await expect(card.getByRole('button', { name: MALEE.name })).toBeVisible();
  await expect(card.getByRole('link', { name: '+66 81 555 0106' })).toHaveAttribute(
    'href',
    'tel:+66815550106',
  );
  await expect(card.getByRole('link', { name: SOMCHAI.email })).toHaveAttribute(
    'href',
    `mailto:${SOMCHAI.email}`,
  );
  const teams = card.getByRole('link', { name: 'Chat in Teams' });
  await expect(teams).toHaveAttribute(
    'href',
    `https://teams.microsoft.com/l/chat/0/0?users=${encodeURIComponent(SOMCHAI.email)}`,
  );
  await expect(teams).toHaveAttribute('target', '_blank');

  // "Message" opens the conversation of the two, headed by Somchai's name.
  await card.getByRole('button', { name: 'Message' }).click();
  await expect(k).not.toHaveURL(new RegExp(topic.id));
  await expect(k).toHaveURL(/\/topics\/[0-9a-f-]+$/);
  const conversationUrl = new URL(k.url()).pathname;
  await expect(k.getByRole('heading', { level: 1, name: new RegExp(SOMCHAI.name) })).toBeVisible();
  await expect(k.getByRole('status', { name: 'Live updates on' })).toBeVisible();
  await k.getByLabel('Message').fill(`Are you free at ten? ${word}`);
  await k.getByLabel('Message').press('Enter');
  await expect(k.getByRole('article').filter({ hasText: `Are you free at ten? ${word}` })).toBeVisible();

  // Somchai's Home lists the conversation apart from the topics, with an unread count, live.
  const s = somchai.page;
  const directMessages = s.getByRole('list', { name: 'Direct messages' });
  const row = directMessages.getByRole('link').filter({ hasText: KANYA.name });
  await expect(row).toContainText(/\d+ unread/);
  await expect(
    s.getByRole('list', { name: 'Topics' }).getByRole('link').filter({ hasText: KANYA.name }),
  ).toHaveCount(0);
  // And under the bell: a direct message notifies like a mention.
  await expect(bell(s)).toHaveAccessibleName(/unread/);
  await bell(s).click();
  const menu = s.getByRole('menu', { name: 'Notifications' });
  await expect(
    menu.getByRole('menuitem', { name: new RegExp(`${KANYA.name} sent you a message`) }).first(),
  ).toContainText(`Are you free at ten? ${word}`);
  await s.keyboard.press('Escape');

  // In the conversation, the next message arrives live.
  await row.click();
  await expect(s).toHaveURL(new RegExp(`${conversationUrl}`));
  await expect(s.getByRole('article').filter({ hasText: `Are you free at ten? ${word}` })).toBeVisible();
  await expect(s.getByRole('status', { name: 'Live updates on' })).toBeVisible();
  await k.getByLabel('Message').fill(`Bring the plans ${word}`);
  await k.getByLabel('Message').press('Enter');
  await expect(s.getByRole('article').filter({ hasText: `Bring the plans ${word}` })).toBeVisible();

  // The dialog's code and texts load on its first use without Home's lists giving way to "Loading"
  // meanwhile: the focus goes from "New message" into the dialog, and back to it when it closes.
  await k.goto('/');
  const newMessage = k.getByRole('button', { name: 'New message' });
  await newMessage.click();
  const dialog = k.getByRole('dialog', { name: 'New message' });
  await expect(dialog).toBeVisible();
  await k.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(newMessage).toBeFocused();

  // "New message" with two people opens a conversation of three.
  await newMessage.click();
  const picker = dialog.getByLabel('People');
  for (const person of ['Somchai', 'Malee']) {
    await picker.fill(person);
    await k
      .getByRole('option')
      .filter({ hasText: person === 'Somchai' ? SOMCHAI.name : MALEE.name })
      .click();
  }
  await dialog.getByRole('button', { name: 'Start conversation' }).click();
  await expect(k).toHaveURL(/\/topics\/[0-9a-f-]+$/);
  await expect(k).not.toHaveURL(new RegExp(conversationUrl));
  const heading = k.getByRole('heading', { level: 1 });
  await expect(heading).toContainText(SOMCHAI.name);
  await expect(heading).toContainText(MALEE.name);
  const id = new URL(k.url()).pathname.split('/').pop() ?? '';
  const three = await apiAs<{ memberCount: number; participants: { id: string }[] }>(
    base,
    kanya.token,
    'GET',
    `/topics/${id}`,
  );
  expect(three.memberCount).toBe(3);
  expect(three.participants.map((p) => p.id).sort()).toEqual([kanya.id, somchai.id, maleeId].sort());

  await kanya.context.close();
  await somchai.context.close();
});
