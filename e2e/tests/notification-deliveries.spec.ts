import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { expect, test } from '../fixtures.ts';
import { insertPerson, serverDataDir, signInAs } from '../session.ts';

/**
 * A dead letter as the delivery worker leaves it after its last failed try: a notification of
 * `userId` and its push delivery, given up after `attempts` with the channel's error.
 */
function insertDeadLetter(userId: string, title: string, error: string): void {
  const db = new DatabaseSync(path.join(serverDataDir(), 'btalk.sqlite'));
  db.exec('PRAGMA busy_timeout = 5000');
  try {
    const at = new Date().toISOString();
    const notificationId = randomUUID();
    db.prepare(
      `INSERT INTO notifications (id, user_id, kind, title, body, data, created_at, read_at, urgent, dispatched_at)
       VALUES (?, ?, 'topic.added', ?, '', '{}', ?, NULL, 0, ?)`,
    ).run(notificationId, userId, title, at, at);
    db.prepare(
      `INSERT INTO notification_deliveries (id, notification_id, user_id, channel, status, urgent, attempts,
         next_attempt_at, locked_until, locked_by, last_error, sent_at, created_at, updated_at)
       VALUES (?, ?, ?, 'push', 'dead', 0, 8, ?, NULL, NULL, ?, NULL, ?, ?)`,
    ).run(randomUUID(), notificationId, userId, at, error, at, at);
  } finally {
    db.close();
  }
}

test('an administrator sees a delivery that failed for good and sends it again', async ({
  page,
  baseURL,
}) => {
  const title = `Added to Budget ${randomUUID().slice(0, 8)}`;
  const recipient = insertPerson(serverDataDir(), `Recipient ${randomUUID().slice(0, 6)}`);
  insertDeadLetter(recipient.id, title, 'push service answered 500 (push.example)');
  await signInAs(page, baseURL!, 'Delivery Admin', { role: 'admin' });

  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Notification deliveries' }).click();
  await expect(page.getByRole('heading', { name: 'Notification deliveries' })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: title });
  await expect(row).toContainText('Browser push');
  await expect(row).toContainText('push service answered 500 (push.example)');
  await row.getByRole('button', { name: /^Send again to / }).click();
  await expect(page.getByText('The delivery will be sent again shortly.')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: title })).toHaveCount(0);
});

test('the deliveries page is for administrators only', async ({ page, baseURL }) => {
  await signInAs(page, baseURL!, 'Plain Member');
  await page.goto(`${baseURL}/admin/notifications`);
  await expect(page.getByText('Only administrators can see the notification deliveries.')).toBeVisible();
});
