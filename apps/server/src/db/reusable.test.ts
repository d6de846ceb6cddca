import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, openTestDatabase, type TestDatabase } from '../test/db.ts';
import { buildUser } from '../test/factories.ts';
import type { Database } from './index.ts';
import { reusable } from './reusable.ts';

describeEachDatabase('queries built once and run with new arguments', (kind) => {
  let test: TestDatabase;
  let db: Kysely<Database>;
  const names = ['Anong', 'Boon', 'Chai', 'Dao'];
  const ids: string[] = [];

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    db = test.db.kysely;
    for (const name of names)
      ids.push((await buildUser(db, { display_name: name, department: 'Finance' })).id);
  });
  afterAll(() => test.cleanup());

  const byId = reusable((db: Kysely<Database>, id: string, department: string) =>
    db
      .selectFrom('users')
      .select(['display_name', sql<number>`1`.as('one')])
      .where('id', '=', id)
      .where('department', '=', department)
      .limit(5),
  );

  it('answers each call with its own arguments, in and out of a transaction', async () => {
    expect(await byId(db, ids[0]!, 'Finance')).toEqual([{ display_name: 'Anong', one: 1 }]);
    expect(await byId(db, ids[1]!, 'Finance')).toEqual([{ display_name: 'Boon', one: 1 }]);
    expect(await byId(db, ids[1]!, 'Legal')).toEqual([]);
    const inside = await db.transaction().execute((trx) => byId(trx, ids[2]!, 'Finance'));
    expect(inside).toEqual([{ display_name: 'Chai', one: 1 }]);
  });

  it('compiles an in list once per length of the array it is given', async () => {
    const named = reusable((db: Kysely<Database>, wanted: string[]) =>
      db.selectFrom('users').select('display_name').where('id', 'in', wanted).orderBy('display_name'),
    );
    const shown = async (wanted: string[]) => (await named(db, wanted)).map((r) => r.display_name);
    expect(await shown([ids[0]!, ids[3]!])).toEqual(['Anong', 'Dao']);
    expect(await shown([ids[1]!, ids[2]!])).toEqual(['Boon', 'Chai']);
    expect(await shown([ids[2]!, ids[1]!, ids[0]!])).toEqual(['Anong', 'Boon', 'Chai']);
    expect(await shown([ids[3]!])).toEqual(['Dao']);
  });

  it('writes with returning, the constants of the query kept', async () => {
    const rename = reusable((db: Kysely<Database>, id: string, name: string) =>
      db
        .updateTable('users')
        .set({ display_name: name, job_title: 'Clerk' })
        .where('id', '=', id)
        .returning(['display_name', 'job_title']),
    );
    expect(await rename(db, ids[3]!, 'Dao R.')).toEqual([{ display_name: 'Dao R.', job_title: 'Clerk' }]);
    expect(await rename(db, ids[2]!, 'Chai R.')).toEqual([{ display_name: 'Chai R.', job_title: 'Clerk' }]);
  });

  it('builds once per optional argument left out and per boolean', async () => {
    const filtered = reusable(
      (db: Kysely<Database>, department: string | undefined, named: boolean, ids: string[]) => {
        let query = db
          .selectFrom('users')
          .select('display_name')
          .where('id', 'in', ids)
          .orderBy('display_name');
        if (department !== undefined) query = query.where('department', '=', department);
        if (named) query = query.where('display_name', 'like', 'A%');
        return query;
      },
    );
    const shown = async (department: string | undefined, named: boolean) =>
      (await filtered(db, department, named, ids)).map((r) => r.display_name);
    expect(await shown('Finance', false)).toHaveLength(4);
    expect(await shown(undefined, true)).toEqual(['Anong']);
    expect(await shown('Legal', false)).toEqual([]);
    expect(await shown(undefined, false)).toHaveLength(4);
    expect(await shown('Finance', true)).toEqual(['Anong']);
  });

  it('refuses, under the tests, a builder whose SQL depends on a value', async () => {
    const branching = reusable((db: Kysely<Database>, department: string | null) => {
      const query = db.selectFrom('users').select('display_name');
      return department === null
        ? query.where('department', 'is', null)
        : query.where('department', '=', department);
    });
    // The first call builds with a stand-in (not null): the "=" branch. A null then differs.
    expect(await branching(db, 'Finance')).toHaveLength(names.length);
    await expect(branching(db, null)).rejects.toThrow(/built differently/);
  });
});
