import { randomUUID } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import type { Browser, Page } from '@playwright/test';
import { expect, test } from '../fixtures.ts';
import { apiAs, browserOf, drillFor, seeded } from './calltree-helpers.ts';

// Phones (issue 15, point 10): no screen scrolls sideways from 360 px up, the app bar folds into a
// menu, and the composer stays usable above the on-screen keyboard, call-tree banner or not.

/** A PNG `width` x `height` pixels of one colour, much wider than a phone. */
function widePng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x90)]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const LONG_WORD = `Pneumonoultramicroscopicsilicovolcanoconiosis${'x'.repeat(120)}`;
const LONG_URL = `https://example.com/${'a-very-long-path-segment/'.repeat(12)}?q=${'z'.repeat(80)}`;
const CODE = `\`\`\`\nconst line = '${'0123456789'.repeat(20)}';\n\`\`\``;
const TABLE = `| ${Array.from({ length: 12 }, (_, i) => `Column number ${i}`).join(' | ')} |\n|${' --- |'.repeat(12)}\n| ${Array.from({ length: 12 }, (_, i) => `value ${i}`).join(' | ')} |`;
const THAI = 'ภาษาไทยไม่เว้นวรรคระหว่างคำจึงเป็นข้อความยาวมากที่ไม่มีช่องว่างเลยแม้แต่น้อย'.repeat(4);

/** Whether the page scrolls sideways: the document wider than the window. */
async function expectNoSidewaysScroll(page: Page, what: string) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.scrollingElement?.scrollWidth ?? 0,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `${what} at ${innerWidth} px is ${scrollWidth} px wide`).toBeLessThanOrEqual(
    innerWidth,
  );
}

/** An administrator's topic whose posts hold long words, addresses, code, a table, Thai and a wide picture. */
async function longContentTopic(page: Page, base: string, adminId: string): Promise<string> {
  const topic = await apiAs<{ id: string }>(page, base, adminId, 'POST', '/topics', {
    title: `${LONG_WORD} ${randomUUID().slice(0, 8)}`,
    description: `See ${LONG_URL}`,
    visibility: 'members',
  });
  for (const body of [LONG_WORD, `Read ${LONG_URL}`, CODE, TABLE, THAI, `Inline \`${'code'.repeat(40)}\``]) {
    await apiAs(page, base, adminId, 'POST', `/topics/${topic.id}/posts`, { clientId: randomUUID(), body });
  }
  return topic.id;
}

/** An important post in the topic, asked of two directory people: the path of its acknowledgement report. */
async function announcedPost(page: Page, base: string, adminId: string, topicId: string): Promise<string> {
  const readers = ['somchai@btalk.test', 'malee@btalk.test'].map(seeded);
  await apiAs(page, base, adminId, 'POST', `/topics/${topicId}/members`, { userIds: readers });
  const post = await apiAs<{ id: string }>(page, base, adminId, 'POST', `/topics/${topicId}/posts`, {
    clientId: randomUUID(),
    body: `Please acknowledge: ${THAI}`,
  });
  await apiAs(page, base, adminId, 'PUT', `/posts/${post.id}/announcement`, {});
  return `/topics/${topicId}/posts/${post.id}/acknowledgements`;
}

/** Every screen an administrator can open, with what shows once it is drawn. */
function screens(
  topicId: string,
  eventId: string,
  report: string,
): Array<[path: string, ready: (p: Page) => Promise<void>]> {
  const h1 = (name: string | RegExp) => (p: Page) =>
    expect(p.getByRole('heading', { name, level: 1 })).toBeVisible();
  return [
    ['/', h1('Home')],
    [`/topics/${topicId}`, (p) => expect(p.getByRole('article').first()).toBeVisible()],
    ['/topics/new', h1('New topic')],
    ['/calltree', h1('Call tree')],
    [`/calltree/event/${eventId}`, (p) => expect(p.getByText('Check in, please.').last()).toBeVisible()],
    ['/settings/notifications', h1('Notification settings')],
    ['/terms', h1(/Terms of use/)],
    ['/admin/terms', h1(/terms of use/i)],
    ['/admin/notifications', h1('Notification deliveries')],
    ['/admin/people', h1('People')],
    ['/admin/uploads', h1('File uploads')],
    [report, h1('Acknowledgements')],
    ['/no-such-page', h1(/not found/i)],
  ];
}

async function adminOnPhone(browser: Browser, base: string, width: number) {
  const { admin, event } = await drillFor(browser, base, `Phone Person ${width}`, `Phone drill ${width}`);
  const adminId = seeded('admin@btalk.test');
  await admin.close();
  const page = await browserOf(browser, base, adminId, '/', { width, height: 780 });
  return { page, adminId, eventId: event.id };
}

for (const width of [360, 390, 412]) {
  test(`at ${width} px no screen scrolls sideways`, async ({ browser, baseURL }) => {
    test.setTimeout(240_000);
    const base = baseURL ?? '';
    const { page, adminId, eventId } = await adminOnPhone(browser, base, width);
    const topicId = await longContentTopic(page, base, adminId);
    const report = await announcedPost(page, base, adminId, topicId);
    // A picture far wider than the phone, posted as people do.
    await page.goto(`/topics/${topicId}`);
    await page.getByTestId('composer-file-input').setInputFiles({
      name: 'panorama.png',
      mimeType: 'image/png',
      buffer: widePng(2400, 60),
    });
    await expect(page.getByRole('list', { name: 'Files to attach' }).getByText('Uploading')).toHaveCount(0);
    await page.getByLabel('Message').fill('The panorama');
    await page.getByLabel('Message').press('Enter');
    await expect(
      page.getByRole('article').filter({ hasText: 'The panorama' }).getByRole('img'),
    ).toBeVisible();
    await expectNoSidewaysScroll(page, 'the topic with a wide picture');
    // Nor do the posts inside their own scrolling list (the page clips it), from the first to the last.
    const scroller = page.locator('[data-virtuoso-scroller]');
    const table = page.getByRole('article').filter({ hasText: 'Column number 11' });
    let tableDrawn = false;
    const height = await scroller.evaluate((el) => el.scrollHeight);
    for (let top = 0; top <= height + 250; top += 250) {
      await scroller.evaluate((el, y) => el.scrollTo({ top: y }), top);
      await page.waitForTimeout(100);
      const { scrollWidth, clientWidth } = await scroller.evaluate((el) => ({
        scrollWidth: el.scrollWidth,
        clientWidth: el.clientWidth,
      }));
      expect(scrollWidth, `the posts scrolled to ${top}`).toBeLessThanOrEqual(clientWidth);
      tableDrawn ||= (await table.count()) === 1;
    }
    expect(tableDrawn, 'the post with the wide table was drawn on the way').toBe(true);

    for (const [path, ready] of screens(topicId, eventId, report)) {
      await page.goto(path);
      await ready(page);
      await expectNoSidewaysScroll(page, path);
    }
    // The Thai words are longer: the app bar and the screens in Thai.
    await page.goto('/');
    await page.getByRole('button', { name: 'Menu', exact: true }).click();
    await page.getByRole('menuitemradio', { name: 'ไทย' }).click();
    for (const path of [
      '/',
      `/topics/${topicId}`,
      '/calltree',
      `/calltree/event/${eventId}`,
      '/admin/people',
      report,
    ]) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await expectNoSidewaysScroll(page, `${path} in Thai`);
    }
    await page.context().close();

    // Signed out: the sign-in screen and the development directory's form.
    const context = await browser.newContext({ baseURL: base, viewport: { width, height: 780 } });
    const signedOut = await context.newPage();
    await signedOut.goto('/login');
    await signedOut.waitForURL(/\/directory\//);
    await expect(signedOut.getByRole('button', { name: 'Sign in' })).toBeVisible();
    await expectNoSidewaysScroll(signedOut, 'the directory sign-in');
    await context.close();
  });
}

test('below the sm breakpoint the app bar folds its navigation and less-used buttons into a Menu', async ({
  browser,
  baseURL,
}) => {
  const base = baseURL ?? '';
  const page = await browserOf(browser, base, seeded('admin@btalk.test'), '/', { width: 360, height: 740 });
  await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(nav.getByRole('link', { name: 'Call tree' })).toBeHidden();
  await expect(page.getByRole('group', { name: 'Language' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Switch to dark theme' })).toBeHidden();
  // The bell and the account menu stay in the bar.
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();

  const menuButton = page.getByRole('button', { name: 'Menu', exact: true });
  await expect(menuButton).toHaveAttribute('aria-haspopup', 'menu');
  await menuButton.click();
  const menu = page.getByRole('menu', { name: 'Menu', exact: true });
  await expect(menu.getByRole('menuitem', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
  await expect(menu.getByRole('menuitemradio', { name: 'English' })).toHaveAttribute('aria-checked', 'true');
  await menu.getByRole('menuitem', { name: 'Call tree' }).click();
  await expect(page).toHaveURL(/\/calltree$/);
  await expect(page.getByRole('heading', { name: 'Call tree', level: 1 })).toBeVisible();
  await expect(menu).toBeHidden();
  await expect(menuButton).toBeFocused();

  // The theme and the language from the menu; the menu speaks Thai then.
  await menuButton.click();
  await page.getByRole('menuitem', { name: 'Switch to dark theme' }).click();
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  await menuButton.click();
  await page.getByRole('menuitemradio', { name: 'ไทย' }).click();
  await expect(page.getByRole('heading', { name: 'ผังการโทร', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'เมนู', exact: true }).click();
  await expect(
    page.getByRole('menu', { name: 'เมนู', exact: true }).getByRole('menuitem', { name: 'หน้าแรก' }),
  ).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toBeHidden();

  // Wider than a phone: everything is in the bar again and there is no Menu.
  await page.setViewportSize({ width: 1024, height: 740 });
  await expect(page.getByRole('button', { name: 'เมนู', exact: true })).toBeHidden();
  await expect(
    page.getByRole('navigation', { name: 'เมนูหลัก' }).getByRole('link', { name: 'หน้าแรก' }),
  ).toBeVisible();
  await page.context().close();
});

for (const banner of [false, true]) {
  test(`the composer stays in view and usable when the on-screen keyboard opens${banner ? ', under a call-tree banner' : ''}`, async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(60_000);
    const base = baseURL ?? '';
    const phone = { width: 390, height: 844 };
    let personId: string;
    let page: Page;
    if (banner) {
      const drill = await drillFor(browser, base, 'Keyboard Person', 'Keyboard drill');
      await drill.admin.close();
      personId = drill.person.id;
      page = await browserOf(browser, base, personId, '/', phone);
      await expect(
        page.getByRole('alert', { name: /Keyboard drill/ }).or(page.getByLabel(/Keyboard drill/)),
      ).toBeVisible();
    } else {
      personId = seeded('admin@btalk.test');
      page = await browserOf(browser, base, personId, '/', phone);
    }
    const topic = await apiAs<{ id: string }>(page, base, personId, 'POST', '/topics', {
      title: `Keyboard ${randomUUID().slice(0, 8)}`,
      visibility: 'members',
    });
    for (let n = 1; n <= 12; n++) {
      await apiAs(page, base, personId, 'POST', `/topics/${topic.id}/posts`, {
        clientId: randomUUID(),
        body: `Earlier message ${n}`,
      });
    }
    await page.goto(`/topics/${topic.id}`);
    await expect(page.getByRole('article').filter({ hasText: 'Earlier message 12' })).toBeVisible();
    // The page asks to be resized by the on-screen keyboard (Chrome on Android otherwise only moves
    // the visual viewport, and `100dvh` keeps the composer under the keyboard).
    expect(await page.locator('meta[name="viewport"]').getAttribute('content')).toContain(
      'interactive-widget=resizes-content',
    );
    const message = page.getByLabel('Message');
    await message.click();
    await expect(message).toBeFocused();
    // The keyboard takes about 40 % of the screen: with `interactive-widget=resizes-content` the
    // layout viewport shrinks to what is left above it.
    await page.setViewportSize({ width: phone.width, height: 480 });
    await expect(message).toBeInViewport({ ratio: 1 });
    // Nothing lies on top of it (the app bar, the banner): a tap at its middle reaches it.
    const covered = await message.evaluate((el) => {
      const box = el.getBoundingClientRect();
      const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return !(top && (el === top || el.contains(top)));
    });
    expect(covered).toBe(false);
    await expectNoSidewaysScroll(page, 'the topic with the keyboard open');
    await message.pressSequentially('Typed above the keyboard');
    await message.press('Enter');
    await expect(page.getByRole('article').filter({ hasText: 'Typed above the keyboard' })).toBeVisible();
    await expect(message).toHaveValue('');
    await expect(message).toBeInViewport({ ratio: 1 });
    await page.context().close();
  });
}
