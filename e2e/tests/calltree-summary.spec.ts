import { randomUUID } from 'node:crypto';
import { expect, test } from '../fixtures.ts';
import { insertPerson, serverDataDir } from '../session.ts';
import { apiAs, browserOf, seeded } from './calltree-helpers.ts';

test('the event page shows how long it took until 50 %, 90 % and 100 % had answered', async ({
  browser,
  baseURL,
}) => {
  const base = baseURL!;
  const adminId = seeded('admin@btalk.test');
  const admin = await browserOf(browser, base, adminId);
  const first = insertPerson(serverDataDir(), 'Somchai Summary');
  const second = insertPerson(serverDataDir(), 'Suda Summary');
  const { tree } = await apiAs<{ tree: { id: string } }>(admin, base, adminId, 'POST', '/calltree/trees', {
    name: 'Summary tree',
    source: 'empty',
  });
  for (const person of [first, second]) {
    await apiAs(admin, base, adminId, 'POST', `/calltree/trees/${tree.id}/members`, {
      userId: person.id,
      managerId: null,
    });
  }
  const title = 'Summary drill';
  const event = await apiAs<{ id: string; options: { id: string }[] }>(
    admin,
    base,
    adminId,
    'POST',
    `/calltree/trees/${tree.id}/events`,
    { title, message: 'Answer, please.', kind: 'drill' },
  );
  // One of two answers: half are in, 90 % and everyone are not.
  await apiAs(admin, base, first.id, 'POST', `/calltree/events/${event.id}/answers`, {
    id: randomUUID(),
    optionId: event.options[0]!.id,
  });

  await admin.goto(`/calltree/event/${event.id}`);
  const times = admin.getByRole('region', { name: 'Answer times' });
  await expect(times.getByRole('region', { name: 'Time to 50 %' })).toContainText(/\d+ (s|min)/);
  await expect(times.getByRole('region', { name: 'Time to 90 %' })).toContainText('Not yet');
  await expect(times.getByRole('region', { name: 'Time to 100 %' })).toContainText('Not yet');

  // The targeted people themselves see no summary: it is for those who run the event.
  const person = await browserOf(browser, base, second.id, `/calltree/event/${event.id}`);
  await expect(person.getByRole('heading', { name: title })).toBeVisible();
  await expect(person.getByRole('region', { name: 'Answer times' })).toHaveCount(0);
});
