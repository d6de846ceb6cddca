import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, TEST_DATABASE_URL } from '../test/db.ts';
import { MAX_PREPARED_PER_CONNECTION, MAX_PREPARED_VALUES, PreparingClient } from './preparingClient.ts';

describeEachDatabase('statements prepared once per connection', (kind) => {
  const schema = `btalk_test_${randomBytes(6).toString('hex')}`;
  let admin: pg.Client;
  const clients: PreparingClient[] = [];

  async function connect(): Promise<PreparingClient> {
    const client = new PreparingClient({
      connectionString: TEST_DATABASE_URL,
      options: `-c search_path=${schema}`,
    });
    await client.connect();
    clients.push(client);
    return client;
  }

  /** The statements prepared on the client's connection (asked unprepared, on the same connection). */
  async function prepared(client: PreparingClient): Promise<string[]> {
    const { rows } = await client.query<{ statement: string }>(
      "select statement from pg_prepared_statements where name like 'btalk\\_%' order by prepare_time",
    );
    return rows.map((r) => r.statement);
  }

  beforeAll(async () => {
    if (kind !== 'postgres') return;
    admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
  });
  afterAll(async () => {
    if (kind !== 'postgres') return;
    await Promise.all(clients.map((c) => c.end()));
    await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
  });

  it.runIf(kind === 'postgres')('prepares a statement with values once and reuses it', async () => {
    const client = await connect();
    const text = 'select $1::int + 1 as n';
    for (const v of [1, 2, 3]) expect((await client.query(text, [v])).rows).toEqual([{ n: v + 1 }]);
    expect(await prepared(client)).toEqual([text]);
  });

  it.runIf(kind === 'postgres')(
    'leaves statements without values (several commands in one) and long value lists unprepared',
    async () => {
      const client = await connect();
      const several = await client.query('create table several (a int); insert into several values (7)');
      expect(several).toHaveLength(2);
      const many = Array.from({ length: MAX_PREPARED_VALUES + 1 }, (_, i) => i);
      const placeholders = many.map((_, i) => `$${i + 1}::int`).join(', ');
      const listed = await client.query(`select a from several where a in (${placeholders}, 7)`, many);
      expect(listed.rows).toEqual([{ a: 7 }]);
      expect(await prepared(client)).toEqual([]);
    },
  );

  it.runIf(kind === 'postgres')(
    `prepares at most ${MAX_PREPARED_PER_CONNECTION} statements on a connection`,
    async () => {
      const client = await connect();
      for (let i = 0; i <= MAX_PREPARED_PER_CONNECTION; i++) {
        expect((await client.query(`select $1::int + ${i} as n`, [1])).rows).toEqual([{ n: 1 + i }]);
      }
      expect(await prepared(client)).toHaveLength(MAX_PREPARED_PER_CONNECTION);
    },
  );

  it.runIf(kind === 'postgres')(
    'survives a table gaining a column under a prepared select *: again at once outside a transaction, at the next use inside one',
    async () => {
      const client = await connect();
      await admin.query(`create table ${schema}.changing (a int)`);
      await admin.query(`insert into ${schema}.changing values (1)`);
      const text = 'select * from changing where a = $1';
      expect((await client.query(text, [1])).rows).toEqual([{ a: 1 }]);

      // Another instance's migration adds a column.
      await admin.query(`alter table ${schema}.changing add column b int default 2`);
      expect((await client.query(text, [1])).rows).toEqual([{ a: 1, b: 2 }]);

      // Prepared afresh under a new name, then changed again.
      expect((await client.query(text, [1])).rows).toEqual([{ a: 1, b: 2 }]);
      await admin.query(`alter table ${schema}.changing add column c int default 3`);
      await client.query('begin');
      await expect(client.query(text, [1])).rejects.toMatchObject({ code: '0A000' });
      await client.query('rollback');
      expect((await client.query(text, [1])).rows).toEqual([{ a: 1, b: 2, c: 3 }]);
    },
  );
});
