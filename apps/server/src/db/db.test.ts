import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { newId } from '../ids.ts';
import { describeEachDatabase, openTestDatabase, type TestDatabase } from '../test/db.ts';
import { buildUser } from '../test/factories.ts';
import { checkReady, durabilitySettings, migrateToLatest, openDatabase } from './index.ts';
import { migrations } from './migrations/index.ts';

describeEachDatabase('storage', (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase(kind);
  });
  afterAll(() => t.cleanup());

  it('applies every migration and reports ready', async () => {
    const ready = await checkReady(t.db);
    expect(ready).toEqual({ ok: true, migration: Object.keys(migrations).at(-1) });
    // Running again applies nothing.
    expect(await migrateToLatest(t.db)).toEqual([]);
  });

  it('keeps migration names timestamped and in order', () => {
    const names = Object.keys(migrations);
    for (const name of names) expect(name).toMatch(/^\d{14}-[a-z0-9-]+$/);
    expect([...names].sort()).toEqual(names);
  });

  it('stores a person and reads timestamps back as ISO-8601 strings', async () => {
    const user = await buildUser(t.db.kysely, { display_name: 'สมชาย ใจดี', locale: 'th' });
    const read = await t.db.kysely
      .selectFrom('users')
      .selectAll()
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(read.display_name).toBe('สมชาย ใจดี');
    expect(read.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(new Date(read.created_at).toISOString()).toBe(user.created_at);
    expect(read.disabled).toBe(0);
  });

  it('keys people by issuer and subject, not e-mail', async () => {
    const a = await buildUser(t.db.kysely, { subject: 'same-subject', email: 'one@btalk.test' });
    await expect(
      buildUser(t.db.kysely, { subject: 'same-subject', email: 'two@btalk.test' }),
    ).rejects.toThrow();
    // The same e-mail under another subject is another person.
    const b = await buildUser(t.db.kysely, { subject: 'other-subject', email: 'one@btalk.test' });
    expect(b.id).not.toBe(a.id);
  });

  it('refuses values outside the allowed set', async () => {
    await expect(buildUser(t.db.kysely, { role: 'owner' as 'admin' })).rejects.toThrow();
  });

  it('writes nothing when a transaction fails half-way', async () => {
    const id = newId();
    await expect(
      t.db.kysely.transaction().execute(async (trx) => {
        await buildUser(trx, { id });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const found = await t.db.kysely.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst();
    expect(found).toBeUndefined();
  });

  it('makes ids that sort in creation order', async () => {
    const ids = Array.from({ length: 50 }, () => newId());
    expect([...ids].sort()).toEqual(ids);
  });

  it('flushes every commit to the disk (no acknowledged write lost to a power cut)', async () => {
    if (kind === 'postgres') {
      // BTalk's sessions never turn synchronous_commit off (fsync is the PostgreSQL server's own setting).
      expect((await durabilitySettings(t.db)).synchronousCommit).not.toBe('off');
      return;
    }
    // The tests' SQLite is in memory: open a file, as the server does.
    const dataDir = mkdtempSync(path.join(tmpdir(), 'btalk-db-'));
    const db = openDatabase({ dataDir });
    try {
      // WAL; the write connection's COMMIT does not wait for the disk (synchronous = NORMAL, 1)
      // because the writer fsyncs the WAL itself before it answers (sqlite-writer.test.ts holds
      // the order).
      const pragmas = await sql<{ synchronous: number }>`pragma synchronous`.execute(db.kysely);
      expect(pragmas.rows[0]?.synchronous).toBe(1);
      expect(await durabilitySettings(db)).toEqual({
        journalMode: 'wal',
        synchronous: 'normal',
        logFsync: 'before each answer, off the event loop',
      });
    } finally {
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
