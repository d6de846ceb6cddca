import { randomUUID } from 'node:crypto';
import { expect, test } from '../fixtures.ts';
import { insertPerson, serverDataDir } from '../session.ts';
import { apiAs, browserOf, seeded } from './calltree-helpers.ts';

test('the branches open level by level: the top two at once, a deeper one read when opened, counts live', async ({
  browser,
  baseURL,
}) => {
  const base = baseURL!;
  const adminId = seeded('admin@btalk.test');
  const admin = await browserOf(browser, base, adminId);
  // A chain five deep (each its own branch but the last): Anan > Boon > Chai > Dao > Ek.
  const tag = randomUUID().slice(0, 4);
  const names = ['Anan', 'Boon', 'Chai', 'Dao', 'Ek'].map((n) => `${n} Branch${tag}`);
  const people = names.map((name) => insertPerson(serverDataDir(), name));
  const { tree } = await apiAs<{ tree: { id: string } }>(admin, base, adminId, 'POST', '/calltree/trees', {
    name: `Branches ${tag}`,
    source: 'empty',
  });
  for (const [i, person] of people.entries()) {
    await apiAs(admin, base, adminId, 'POST', `/calltree/trees/${tree.id}/members`, {
      userId: person.id,
      managerId: i === 0 ? null : people[i - 1]!.id,
    });
  }
  const event = await apiAs<{ id: string; options: { id: string }[] }>(
    admin,
    base,
    adminId,
    'POST',
    `/calltree/trees/${tree.id}/events`,
    { title: `Branches drill ${tag}`, message: 'Answer, please.', kind: 'drill' },
  );
  try {
    await admin.goto(`/calltree/event/${event.id}`);
    const branches = admin.getByRole('region', { name: 'Branches' });
    const branch = (i: number) => branches.getByRole('listitem', { name: new RegExp(`^${names[i]}:`) });
    await expect(branch(0)).toHaveAccessibleName(`${names[0]}: 0 safe, 0 need help, 5 no answer`);
    await expect(branch(1)).toHaveAccessibleName(`${names[1]}: 0 safe, 0 need help, 4 no answer`);
    await expect(branch(2)).toHaveCount(0);

    // Chai, two levels down, shows once Boon is opened; Dao once Chai is.
    const openBoon = branches.getByRole('button', { name: `Show the branches under ${names[1]}` });
    await expect(openBoon).toHaveAttribute('aria-expanded', 'false');
    await openBoon.click();
    await expect(branch(2)).toHaveAccessibleName(`${names[2]}: 0 safe, 0 need help, 3 no answer`);
    await branches.getByRole('button', { name: `Show the branches under ${names[2]}` }).click();
    await expect(branch(3)).toHaveAccessibleName(`${names[3]}: 0 safe, 0 need help, 2 no answer`);
    // Dao leads only Ek, who leads nobody: no branch under Dao to open.
    await expect(branches.getByRole('button', { name: `Show the branches under ${names[3]}` })).toHaveCount(
      0,
    );

    // Ek answers: the opened levels follow without a reload, as the top does.
    await apiAs(admin, base, people[4]!.id, 'POST', `/calltree/events/${event.id}/answers`, {
      id: randomUUID(),
      optionId: event.options[0]!.id,
    });
    await expect(branch(3)).toHaveAccessibleName(`${names[3]}: 1 safe, 0 need help, 1 no answer`);
    await expect(branch(0)).toHaveAccessibleName(`${names[0]}: 1 safe, 0 need help, 4 no answer`);

    // Closing Boon hides everything under him.
    await branches.getByRole('button', { name: `Hide the branches under ${names[1]}` }).click();
    await expect(branch(2)).toHaveCount(0);
    await expect(branch(3)).toHaveCount(0);
  } finally {
    // A running event would show its banner to these people in later tests: it ends here.
    await apiAs(admin, base, adminId, 'POST', `/calltree/events/${event.id}/close`, {});
  }
});
