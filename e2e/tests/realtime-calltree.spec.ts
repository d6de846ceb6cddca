import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures.ts';
import { apiAs, browserOf, seeded } from './calltree-helpers.ts';

const totalOf = (page: Page, name: string) =>
  page.getByRole('region', { name: 'Totals' }).getByRole('region', { name }).getByRole('status');

test("an answer through the API shows on the admin's open roll-up at once, well before any polling", async ({
  browser,
  baseURL,
}) => {
  // The roll-up polls only every 60 s (ROLLUP_REFETCH_MS) as a safety net: an answer that shows
  // within 5 s of being made came over the realtime stream.
  const base = baseURL ?? '';
  const adminId = seeded('admin@btalk.test');
  const admin = await browserOf(browser, base, adminId, '/calltree');
  const { tree } = await apiAs<{ tree: { id: string } }>(admin, base, adminId, 'POST', '/calltree/trees', {
    name: `Live roll-up ${randomUUID().slice(0, 8)}`,
    source: 'directory',
  });
  const event = await apiAs<{ id: string }>(
    admin,
    base,
    adminId,
    'POST',
    `/calltree/trees/${tree.id}/events`,
    {
      title: 'Realtime drill',
      message: 'Answer when you are at the assembly point.',
      kind: 'drill',
      branchRootId: seeded('somchai@btalk.test'),
    },
  );
  await admin.goto(`/calltree/event/${event.id}`);
  await expect(admin.getByRole('heading', { level: 1, name: 'Realtime drill' })).toBeVisible();
  await expect(admin.getByRole('status', { name: 'Live updates on' })).toBeAttached();
  await expect(totalOf(admin, 'Safe')).toHaveText('0');
  const waiting = Number(await totalOf(admin, 'No answer').textContent());
  expect(waiting).toBeGreaterThan(1);

  const niran = seeded('niran@btalk.test');
  await apiAs(admin, base, niran, 'POST', `/calltree/events/${event.id}/answers`, {
    id: randomUUID(),
    optionId: 'safe',
  });
  await expect(totalOf(admin, 'Safe')).toHaveText('1', { timeout: 5000 });
  await expect(totalOf(admin, 'No answer')).toHaveText(String(waiting - 1));

  await apiAs(admin, base, seeded('pimchanok@btalk.test'), 'POST', `/calltree/events/${event.id}/answers`, {
    id: randomUUID(),
    optionId: 'need_help',
  });
  await expect(totalOf(admin, 'Need help')).toHaveText('1', { timeout: 5000 });
  await admin.context().close();
});
