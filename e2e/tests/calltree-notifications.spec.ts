import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { expect, test } from '../fixtures.ts';
import { insertPerson, serverDataDir } from '../session.ts';
import { apiAs, browserOf, seeded } from './calltree-helpers.ts';

/**
 * Brings the escalation deadline of a person's target row forward to now, as if the event's delay
 * (at least a minute) had passed; the server's real scheduler then escalates on its next round.
 */
function escalationDueNow(eventId: string, personId: string): void {
  const db = new DatabaseSync(path.join(serverDataDir(), 'btalk.sqlite'));
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    const changed = db
      .prepare('UPDATE call_event_targets SET next_escalation_at = ? WHERE event_id = ? AND user_id = ?')
      .run(new Date(Date.now() - 1000).toISOString(), eventId, personId);
    if (changed.changes !== 1) throw new Error(`no target row for ${personId} in event ${eventId}`);
  } finally {
    db.close();
  }
}

interface Listed {
  items: { kind: string }[];
  unreadCount: number;
}

test('a manager is told under the bell that a report has not answered, and opens the event from it', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const base = baseURL!;
  const adminId = seeded('admin@btalk.test');
  const admin = await browserOf(browser, base, adminId);
  const manager = insertPerson(serverDataDir(), 'Malee Manager');
  const report = insertPerson(serverDataDir(), 'Ratana Report');
  const { tree } = await apiAs<{ tree: { id: string } }>(admin, base, adminId, 'POST', '/calltree/trees', {
    name: 'Notification drill tree',
    source: 'empty',
  });
  const members = `/calltree/trees/${tree.id}/members`;
  await apiAs(admin, base, adminId, 'POST', members, { userId: manager.id, managerId: null });
  await apiAs(admin, base, adminId, 'POST', members, { userId: report.id, managerId: manager.id });
  const title = 'Smoke in building B';
  const event = await apiAs<{ id: string }>(
    admin,
    base,
    adminId,
    'POST',
    `/calltree/trees/${tree.id}/events`,
    {
      title,
      message: 'Tell us you are safe.',
      kind: 'drill',
      escalationDelayMinutes: 1,
    },
  );

  escalationDueNow(event.id, report.id);
  // The scheduler runs every few seconds: wait until the manager's escalation is written.
  await expect
    .poll(
      async () =>
        (await apiAs<Listed>(admin, base, manager.id, 'GET', '/notifications')).items.map((n) => n.kind),
      { timeout: 30_000 },
    )
    .toContain('calltree.escalation');

  // The manager was targeted too (the event started for them), so two are unread.
  const page = await browserOf(browser, base, manager.id);
  const bell = page.getByRole('button', { name: 'Notifications, 2 unread' });
  await expect(bell).toBeVisible();
  await bell.click();
  const menu = page.getByRole('menu', { name: 'Notifications' });
  const escalation = menu.getByRole('menuitem', { name: /No answer from Ratana Report/ });
  await expect(escalation).toContainText(
    `Ratana Report has not answered "${title}" for about 1 minute. Please reach them and answer on their behalf.`,
  );
  await expect(menu.getByRole('menuitem', { name: new RegExp(`Drill: ${title}`) })).toBeVisible();
  // Urgent: marked with a warning, not only by colour.
  await expect(escalation.getByRole('img', { name: 'Urgent' })).toBeVisible();
  // Opening the menu marks nothing read; choosing one marks that one and opens its event.
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  expect((await apiAs<Listed>(admin, base, manager.id, 'GET', '/notifications')).unreadCount).toBe(2);
  await bell.click();
  await escalation.click();
  await expect(page).toHaveURL(new RegExp(`/calltree/event/${event.id}$`));
  await expect(page.getByRole('heading', { name: title })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Notifications, 1 unread' })).toBeVisible();
  await expect
    .poll(async () => (await apiAs<Listed>(admin, base, manager.id, 'GET', '/notifications')).unreadCount)
    .toBe(1);
});
