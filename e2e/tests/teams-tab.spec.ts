import { expect, type Page, test } from '@playwright/test';
import { fillDirectorySignIn } from '../directory.ts';
import { acceptTermsFor } from '../session.ts';
import {
  forgetDirectoryConsent,
  startTeamsStandIns,
  type TeamsStandIns,
  teamsHostUrl,
  teamsSsoToken,
} from '../teams.ts';

// The Teams tab (`/teamtab`) in Chromium, framed by the local Teams host page (e2e/teams-host/),
// which answers teams-js' host messages: the tab's real @microsoft/teams-js connects to it, takes its
// context and theme, signs in with its single sign-on token, and asks it for the consent popup.

// Their own BTalk server, over HTTPS as Teams requires (e2e/teams.ts), with a self-signed certificate.
test.use({ ignoreHTTPSErrors: true });
let teams: TeamsStandIns;
test.beforeAll(async () => {
  teams = await startTeamsStandIns();
});
test.afterAll(async () => {
  await teams?.stop();
});

const DAVID = 'david@btalk.test';
const NEWHIRE = 'newhire@btalk.test';

/** What the host page recorded (e2e/teams-host/host.js). */
function hostCalls(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { teamsHost: { calls: string[] } }).teamsHost.calls);
}

/** Gives the host page the person's Teams SSO token, which it hands to the tab's `getAuthToken()`. */
async function hostSignsInAs(page: Page, email: string): Promise<void> {
  acceptTermsFor(teams.dataDir, email);
  const token = await teamsSsoToken(teams.baseURL, email);
  await page.exposeFunction('teamsHostSsoToken', () => token);
}

const tabOf = (page: Page) => page.frameLocator('iframe[title="BTalk tab"]');

/** The relative luminance (0 black .. 1 white) of a CSS `rgb(...)` colour. */
function luminance(colour: string): number {
  const [r = 0, g = 0, b = 0] = (colour.match(/\d+(\.\d+)?/g) ?? []).map(Number);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}

test("signs in with Teams' single sign-on and shows BTalk's Home in the tab, without Sign out", async ({
  page,
}) => {
  await hostSignsInAs(page, DAVID);
  await page.goto(teamsHostUrl(teams, { locale: 'en-us' }));
  const tab = tabOf(page);
  await expect(tab.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
  await tab.getByRole('button', { name: 'Account menu' }).click();
  await expect(tab.getByRole('menuitem', { name: /David Thompson/ })).toBeVisible();
  // Teams owns the account: the tab offers no sign-out, and no theme switch (Teams' theme rules).
  await expect(tab.getByRole('menuitem', { name: 'Sign out' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(tab.getByRole('button', { name: /theme/i })).toHaveCount(0);
  const calls = await hostCalls(page);
  expect(calls).toEqual(expect.arrayContaining(['initialize', 'getContext', 'authentication.getAuthToken']));
  // One opening, one sign-in: not a second session for the same tab.
  expect(calls.filter((c) => c === 'authentication.getAuthToken')).toHaveLength(1);
});

test('without an answer from the host, the tab says it belongs in Teams and signs nobody in', async ({
  page,
}) => {
  await hostSignsInAs(page, DAVID);
  await page.goto(teamsHostUrl(teams, { answer: 'none' }));
  const tab = tabOf(page);
  await expect(tab.getByText('This view opens as a tab inside Microsoft Teams.')).toBeVisible({
    timeout: 15_000,
  });
  await expect(tab.getByRole('link', { name: 'Open BTalk' })).toBeVisible();
  await expect(tab.getByRole('heading', { name: 'Home', level: 1 })).toHaveCount(0);
  expect(await hostCalls(page)).toEqual(['initialize']);
});

test('when Teams gives no token, the tab says sign-in did not work and offers to try again', async ({
  page,
}) => {
  // No teamsHostSsoToken: the host answers getAuthToken with a failure, as Teams does.
  await page.goto(teamsHostUrl(teams));
  const tab = tabOf(page);
  await expect(tab.getByText('Signing in with Microsoft Teams did not work.')).toBeVisible();
  await expect(tab.getByRole('button', { name: 'Try again' })).toBeVisible();
  await expect(tab.getByRole('heading', { name: 'Home', level: 1 })).toHaveCount(0);
});

test("asks a person who has not consented for consent: Teams' popup signs in at the directory, then the tab signs in", async ({
  page,
}) => {
  forgetDirectoryConsent(teams.dataDir, NEWHIRE);
  await hostSignsInAs(page, NEWHIRE);
  await page.goto(teamsHostUrl(teams, { locale: 'en-us' }));
  const tab = tabOf(page);
  await expect(
    tab.getByText("Before BTalk can show your profile and colleagues, your organisation's directory needs"),
  ).toBeVisible();
  const popupOpened = page.waitForEvent('popup');
  await tab.getByRole('button', { name: 'Give consent' }).click();
  // The host opened the page the tab asked for (authentication.authenticate): the tab's consent page,
  // which goes on to the directory's sign-in.
  const popup = await popupOpened;
  expect(await hostCalls(page)).toContain('authentication.authenticate');
  await fillDirectorySignIn(popup, NEWHIRE);
  // Back in BTalk, the popup tells the host it succeeded (notifySuccess), and closes.
  await popup.waitForEvent('close');
  expect(await hostCalls(page)).toContain('authentication.authenticate.success');
  await expect(tab.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
  await tab.getByRole('button', { name: 'Account menu' }).click();
  await expect(tab.getByRole('menuitem', { name: /Nattapong Srisawat|ณัฐพงษ์ ศรีสวัสดิ์/ })).toBeVisible();
  // The directory remembers the consent: opening the tab again signs in at once.
  await page.reload();
  await expect(tabOf(page).getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
  await expect(tabOf(page).getByRole('button', { name: 'Give consent' })).toHaveCount(0);
});

test("follows Teams' theme: a theme change from the host turns the tab dark", async ({ page }) => {
  await hostSignsInAs(page, DAVID);
  await page.goto(teamsHostUrl(teams, { theme: 'default' }));
  const tab = tabOf(page);
  await expect(tab.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
  const background = () => tab.locator('body').evaluate((body) => getComputedStyle(body).backgroundColor);
  expect(luminance(await background())).toBeGreaterThan(0.8);
  // The tab registered for theme changes through teams-js before the host sends one.
  await expect
    .poll(() =>
      page.evaluate(() => (window as unknown as { teamsHost: { handlers: string[] } }).teamsHost.handlers),
    )
    .toContain('themeChange');
  await page.evaluate(() =>
    (window as unknown as { teamsHost: { themeChange(theme: string): void } }).teamsHost.themeChange('dark'),
  );
  await expect.poll(async () => luminance(await background())).toBeLessThan(0.2);
  await expect(tab.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
});

test("opens the BTalk page a deep link names (the context's subEntityId)", async ({ page }) => {
  await hostSignsInAs(page, DAVID);
  await page.goto(teamsHostUrl(teams, { subEntityId: '/calltree' }));
  const tab = tabOf(page);
  await expect(tab.getByRole('heading', { name: 'Call tree', level: 1 })).toBeVisible();
  expect(page.frame({ url: /\/calltree$/ })).not.toBeNull();
});
