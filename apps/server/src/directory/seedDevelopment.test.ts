import { expect, it } from 'vitest';
import { describeEachDatabase } from '../test/db.ts';
import { useTestServer } from '../test/server.ts';
import { personByEmail } from './people.ts';
import { seedDevelopment } from './seedDevelopment.ts';

describeEachDatabase('development seed', (kind) => {
  const server = useTestServer(kind);

  it('puts the directory people in place and seeds topics from them, once', async () => {
    const first = await seedDevelopment(server.ctx);
    expect(first.people).toBeGreaterThanOrEqual(40);
    expect(first.topics).toBeGreaterThan(0);
    const db = server.ctx.db.kysely;
    const count = async () =>
      Number(
        (
          await db
            .selectFrom('posts')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const posts = await count();
    expect(posts).toBeGreaterThan(0);
    const somchai = await db
      .selectFrom('users')
      .select(['id', 'phone'])
      .where('email', '=', 'somchai@btalk.test')
      .executeTakeFirstOrThrow();
    // Managers chasing an unanswered call tree see everyone's phone.
    expect(somchai.phone).toBe(personByEmail('somchai@btalk.test')?.mobilePhone);
    const byHim = await db.selectFrom('posts').select('id').where('author_id', '=', somchai.id).execute();
    expect(byHim.length).toBeGreaterThan(0);

    await seedDevelopment(server.ctx);
    expect(await count()).toBe(posts);
    const topics = await db.selectFrom('topics').select('id').execute();
    expect(topics).toHaveLength(first.topics);
  });
});
