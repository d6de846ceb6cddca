import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures.ts';
import { apiAs, browserOf, seeded } from './calltree-helpers.ts';

/**
 * Holds the browser's requests of `method` to `url` until the test lets them go: the answer is late
 * by as long as the test needs to look at the screen (the server itself is not slowed). `fail`
 * answers the held request with that envelope instead of letting it through.
 */
async function holdRequests(page: Page, url: string | RegExp, method: string) {
  let release: (() => void) | null = null;
  let arrived: (() => void) | null = null;
  let failWith: { status: number; code: number; message: string } | null = null;
  await page.route(url, async (route) => {
    if (route.request().method() !== method) return route.fallback();
    const go = new Promise<void>((resolve) => {
      release = resolve;
    });
    arrived?.();
    await go;
    if (failWith) {
      const { status, ...body } = failWith;
      return route.fulfill({ status, json: body });
    }
    return route.continue();
  });
  return {
    /** Resolves once a request is being held. */
    held: () =>
      new Promise<void>((resolve) => {
        arrived = resolve;
        if (release) resolve();
      }),
    /** Lets the held request go on to the server. */
    letGo: () => {
      release?.();
      release = null;
    },
    /** Answers the held request (and later ones) with this failure. */
    fail: (status: number, code: number, message: string) => {
      failWith = { status, code, message };
      release?.();
      release = null;
    },
  };
}

test('building a tree, importing a CSV and starting an event show "Please wait a moment..." until they finish', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const adminId = seeded('admin@btalk.test');
  const admin = await browserOf(browser, baseURL!, adminId, '/calltree');
  const spinner = admin.getByRole('dialog', { name: 'Please wait a moment...' });
  await expect(admin.getByRole('heading', { name: 'Call tree', level: 1 })).toBeVisible();

  // Building the tree.
  const build = await holdRequests(admin, /\/api\/calltree\/trees$/, 'POST');
  await admin.getByRole('button', { name: 'New tree' }).click();
  const newTree = admin.getByRole('dialog', { name: 'New tree' });
  await newTree.getByLabel('Name').fill('Spinner drill');
  await newTree.getByRole('radio', { name: 'Start empty (add people or import a CSV)' }).check();
  let held = build.held();
  await newTree.getByRole('button', { name: 'Create' }).click();
  await held;
  await expect(spinner).toBeVisible();
  await expect(spinner.getByRole('progressbar')).toBeVisible();
  build.letGo();
  const tree = admin.getByRole('dialog', { name: 'Spinner drill (0 people)' });
  await expect(tree).toBeVisible();
  await expect(spinner).toHaveCount(0);

  // Importing a CSV: the preview, then replacing the tree's people. People no other test uses.
  const importing = await holdRequests(admin, /\/api\/calltree\/trees\/[\w-]+\/csv$/, 'POST');
  await tree.getByRole('tab', { name: 'Import CSV' }).click();
  await tree
    .getByRole('textbox', { name: 'CSV text' })
    .fill('email,manager email\nwanida@btalk.test,\nploy@btalk.test,wanida@btalk.test\n');
  held = importing.held();
  await tree.getByRole('button', { name: 'Preview' }).click();
  await held;
  await expect(spinner).toBeVisible();
  importing.letGo();
  await expect(tree.getByText('2 rows are ready to import.')).toBeVisible();
  await expect(spinner).toHaveCount(0);
  held = importing.held();
  await tree.getByRole('button', { name: "Replace the tree's people" }).click();
  await held;
  await expect(spinner).toBeVisible();
  importing.letGo();
  await expect(admin.getByText('The tree was imported: 2 people.')).toBeVisible();
  await expect(spinner).toHaveCount(0);
  await admin
    .getByRole('dialog', { name: 'Spinner drill (2 people)' })
    .getByRole('button', { name: 'Close' })
    .click();

  // Starting an event.
  const starting = await holdRequests(admin, /\/api\/calltree\/trees\/[\w-]+\/events$/, 'POST');
  await admin.getByRole('button', { name: 'Start event' }).click();
  const start = admin.getByRole('dialog', { name: 'Start event' });
  await start.getByRole('combobox', { name: /^Tree/ }).click();
  await admin.getByRole('option', { name: /^Spinner drill/ }).click();
  await start.getByRole('textbox', { name: 'Title' }).fill('Spinner check');
  await start.getByLabel('Message').fill('A drill to check the spinner. Answer when you can.');
  held = starting.held();
  await start.getByRole('button', { name: 'Start', exact: true }).click();
  await held;
  await expect(spinner).toBeVisible();
  starting.letGo();
  await expect(admin.getByRole('heading', { level: 1, name: 'Spinner check' })).toBeVisible();
  await expect(spinner).toHaveCount(0);

  // The drill ends here, so that its banner does not reach other tests' screens.
  const eventId = admin.url().split('/').pop()!;
  await apiAs(admin, baseURL!, adminId, 'POST', `/calltree/events/${eventId}/close`, {});
  await admin.context().close();
});

test('a failed start hides the spinner and shows the error dialog', async ({ browser, baseURL }) => {
  const adminId = seeded('admin@btalk.test');
  const admin = await browserOf(browser, baseURL!, adminId, '/calltree');
  const spinner = admin.getByRole('dialog', { name: 'Please wait a moment...' });
  await apiAs(admin, baseURL!, adminId, 'POST', '/calltree/trees', {
    name: 'Failing start',
    source: 'empty',
  });
  await admin.reload();

  const starting = await holdRequests(admin, /\/api\/calltree\/trees\/[\w-]+\/events$/, 'POST');
  await admin.getByRole('button', { name: 'Start event' }).click();
  const start = admin.getByRole('dialog', { name: 'Start event' });
  await start.getByRole('combobox', { name: /^Tree/ }).click();
  await admin.getByRole('option', { name: /^Failing start/ }).click();
  await start.getByRole('textbox', { name: 'Title' }).fill('Never started');
  await start.getByLabel('Message').fill('This start fails on its way back.');
  const held = starting.held();
  await start.getByRole('button', { name: 'Start', exact: true }).click();
  await held;
  await expect(spinner).toBeVisible();
  starting.fail(503, 5030, 'The server is busy; try again in a minute.');
  const error = admin.getByRole('dialog', { name: 'Error Occurred!' });
  await expect(error).toBeVisible();
  await expect(error.getByText('The server is busy; try again in a minute.')).toBeVisible();
  await expect(spinner).toHaveCount(0);
  await error.getByRole('button', { name: 'Dismiss' }).click();
  await expect(error).toHaveCount(0);
  await admin.context().close();
});
