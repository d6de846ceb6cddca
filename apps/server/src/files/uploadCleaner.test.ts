import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { newId } from '../ids.ts';
import { PNG, storedKeys, uploaded } from '../test/attachments.ts';
import { describeEachDatabase } from '../test/db.ts';
import { useTestServer } from '../test/server.ts';
import { signedIn } from '../test/session.ts';
import { as, buildTopic, dataOf } from '../test/topics.ts';
import { UploadCleaner } from './uploadCleaner.ts';

/** Fixed times, long before any upload the tests make now, so the clock of the test machine never matters. */
const OLD = '2000-01-01T00:00:00.000Z';
const FRESH = '2000-01-02T12:00:00.000Z';
/** The clean-up's clock: 37 hours after OLD, 1 hour after FRESH. */
const CLEAN_UP_AT = new Date('2000-01-02T13:00:00.000Z');

describeEachDatabase('the clean-up of uploads never posted', (kind) => {
  const server = useTestServer(kind);

  async function attachment(id: string) {
    return server.ctx.db.kysely.selectFrom('attachments').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async function uploadedAt(id: string, at: string) {
    await server.ctx.db.kysely
      .updateTable('attachments')
      .set({ created_at: at })
      .where('id', '=', id)
      .execute();
  }

  const cleaner = (removed: number[] = []) =>
    new UploadCleaner({
      db: server.ctx.db.kysely,
      files: server.ctx.files,
      ttlHours: 24,
      now: () => CLEAN_UP_AT,
      batchSize: 2,
      onRemoved: (count) => removed.push(count),
    });

  it('removes old uploads no post took in (row and file), keeps posted and fresh ones', async () => {
    const alice = await signedIn(server);
    const t = await buildTopic(server, alice);
    const files = await uploaded(server, alice, t.id, [
      { name: 'stale-1.png', content: PNG },
      { name: 'stale-2.txt', content: Buffer.from('two') },
      { name: 'stale-3.txt', content: Buffer.from('three') },
      { name: 'posted.txt', content: Buffer.from('posted') },
      { name: 'fresh.txt', content: Buffer.from('fresh') },
    ]);
    const [s1, s2, s3, posted, fresh] = files;
    dataOf(
      await as(server, alice).post(`/api/topics/${t.id}/posts`, {
        clientId: newId(),
        attachmentIds: [posted!.id],
      }),
    );
    for (const f of [s1, s2, s3, posted]) await uploadedAt(f!.id, OLD);
    await uploadedAt(fresh!.id, FRESH);
    const keys = new Map<string, string>();
    for (const f of files) keys.set(f.id, (await attachment(f.id))!.storage_key);
    expect(storedKeys(server)).toEqual(expect.arrayContaining([...keys.values()]));

    const removed: number[] = [];
    // Three stale uploads in batches of two: the run goes on until none is left.
    expect(await cleaner(removed).tick()).toBe(3);
    expect(removed).toEqual([3]);
    for (const f of [s1, s2, s3]) {
      expect(await attachment(f!.id)).toBeUndefined();
      expect(storedKeys(server)).not.toContain(keys.get(f!.id));
      const gone = await server.request({ method: 'GET', url: f!.url, headers: alice.headers });
      expect(gone.statusCode).toBe(404);
    }
    for (const f of [posted, fresh]) {
      expect(await attachment(f!.id)).toBeDefined();
      expect(storedKeys(server)).toContain(keys.get(f!.id));
      const kept = await server.request({ method: 'GET', url: f!.url, headers: alice.headers });
      expect(kept.statusCode).toBe(200);
    }
    // Nothing more to do: a second run (or another instance) removes nothing and says nothing.
    expect(await cleaner(removed).tick()).toBe(0);
    expect(removed).toEqual([3]);
  });

  it('removes each upload once when several instances run at the same time', async () => {
    const bob = await signedIn(server);
    const t = await buildTopic(server, bob);
    const files = await uploaded(
      server,
      bob,
      t.id,
      [1, 2, 3, 4, 5].map((n) => ({ name: `${n}.txt`, content: Buffer.from(`file ${n}`) })),
    );
    for (const f of files) await uploadedAt(f.id, OLD);
    const counts = await Promise.all([cleaner().tick(), cleaner().tick(), cleaner().tick()]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(5);
    for (const f of files) expect(await attachment(f.id)).toBeUndefined();
  });

  // The interleaving needs two connections at once: PostgreSQL (SQLite has one writer).
  it.skipIf(kind !== 'postgres')(
    'an upload removed while its post is written is not silently dropped from the post',
    async () => {
      const carol = await signedIn(server);
      const t = await buildTopic(server, carol);
      const [file] = await uploaded(server, carol, t.id, [
        { name: 'late.txt', content: Buffer.from('late') },
      ]);
      const db = server.ctx.db.kysely;
      // A clean-up deletes the row and has not committed yet when the post takes the file in.
      const cleanUp = await db.startTransaction().execute();
      await cleanUp.deleteFrom('attachments').where('id', '=', file!.id).execute();
      const posting = as(server, carol).post(`/api/topics/${t.id}/posts`, {
        clientId: newId(),
        body: 'with a file',
        attachmentIds: [file!.id],
      });
      // Wait until the post's transaction waits for the clean-up's row lock, then commit the clean-up.
      for (let waiting = 0; waiting === 0; ) {
        const row = await sql<{ n: number | string }>`select count(*) as n from pg_stat_activity
        where wait_event_type = 'Lock' and query like 'update "attachments"%'`.execute(db);
        waiting = Number(row.rows[0]?.n ?? 0);
        if (waiting === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await cleanUp.commit().execute();
      const res = await posting;
      expect(res.statusCode).toBe(400);
      expect(res.json().details[0].field).toBe('body.attachmentIds');
      const posts = await db.selectFrom('posts').select('id').where('topic_id', '=', t.id).execute();
      expect(posts).toEqual([]);
    },
  );
});
