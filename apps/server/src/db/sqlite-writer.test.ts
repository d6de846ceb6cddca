import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { type Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from './index.ts';

/*
 * The SQLite file path: reads outside a transaction on a read connection, transactions on the write
 * connection with group commit (sqlite-writer.ts). The tests use a table of their own; `:memory:`
 * databases (the other tests) keep Kysely's single connection.
 */

interface Notes {
  notes: { id: number; text: string };
}

let dataDir: string;
let db: Db;
let notes: Kysely<Notes>;

function open(): Db {
  const opened = openDatabase({ dataDir });
  notes = opened.kysely as unknown as Kysely<Notes>;
  return opened;
}

async function texts(): Promise<string[]> {
  const rows = await notes.selectFrom('notes').select('text').orderBy('id').execute();
  return rows.map((r) => r.text);
}

/** What another connection finds committed in the file. */
function committedTexts(): string[] {
  const other = new DatabaseSync(path.join(dataDir, 'btalk.sqlite'));
  try {
    return other
      .prepare('select text from notes order by id')
      .all()
      .map((r) => String(r.text));
  } finally {
    other.close();
  }
}

function insert(trx: Kysely<Notes>, text: string) {
  return trx
    .insertInto('notes')
    .values({ text } as Notes['notes'])
    .execute();
}

describe('SQLite file with group commit', () => {
  beforeEach(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'btalk-writer-'));
    db = open();
    await sql`create table notes (id integer primary key, text text not null unique)`.execute(db.kysely);
  });
  afterEach(async () => {
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('reads its own committed writes, and any other connection finds them committed', async () => {
    await notes.transaction().execute((trx) => insert(trx, 'first'));
    await insert(notes, 'second');
    expect(await texts()).toEqual(['first', 'second']);
    expect(committedTexts()).toEqual(['first', 'second']);
  });

  it('acknowledges concurrent transactions only once they are committed', async () => {
    const all = Array.from({ length: 50 }, (_, i) => `note ${i}`);
    await Promise.all(all.map((text) => notes.transaction().execute((trx) => insert(trx, text))));
    expect(committedTexts().sort()).toEqual([...all].sort());
    await db.close();
    db = open();
    expect((await texts()).sort()).toEqual([...all].sort());
  });

  it('rolls back a failing transaction alone, and commits the others of its batch', async () => {
    // Started together, the three run one after another in one batch (one COMMIT).
    const results = await Promise.allSettled([
      notes.transaction().execute((trx) => insert(trx, 'kept before')),
      notes.transaction().execute(async (trx) => {
        await insert(trx, 'undone');
        throw new Error('boom');
      }),
      notes.transaction().execute(async (trx) => {
        await insert(trx, 'kept after');
        // A statement that fails inside a transaction that carries on.
        await insert(trx, 'kept after').catch(() => {});
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(committedTexts()).toEqual(['kept before', 'kept after']);
    // A write on its own that fails leaves the connection usable.
    await expect(insert(notes, 'kept before')).rejects.toThrow(/UNIQUE/);
    await insert(notes, 'later');
    expect(committedTexts()).toEqual(['kept before', 'kept after', 'later']);
  });

  it('rejects every transaction of a batch whose COMMIT fails, and writes none of them', async () => {
    // A deferred foreign key is checked at COMMIT, not when a savepoint is released.
    await sql`create table parents (id integer primary key)`.execute(db.kysely);
    await sql`create table children (id integer primary key, parent_id integer not null references parents(id) deferrable initially deferred)`.execute(
      db.kysely,
    );
    const results = await Promise.allSettled([
      notes.transaction().execute((trx) => insert(trx, 'in the failed batch')),
      notes.transaction().execute((trx) => sql`insert into children (parent_id) values (42)`.execute(trx)),
      notes.transaction().execute((trx) => insert(trx, 'also in the failed batch')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect((results[0] as PromiseRejectedResult).reason.message).toMatch(/FOREIGN KEY/);
    expect(committedTexts()).toEqual([]);
    await insert(notes, 'after');
    expect(committedTexts()).toEqual(['after']);
  });

  it('reads outside a transaction without waiting for the transaction under way', async () => {
    await insert(notes, 'committed');
    const seen = await notes.transaction().execute(async (trx) => {
      await insert(trx, 'not yet committed');
      // With one connection for everything, this read would wait for this transaction's end.
      return texts();
    });
    expect(seen).toEqual(['committed']);
  });

  it('lets the transactions of requests that arrive before the COMMIT join its batch', async () => {
    // A deferred foreign key fails the COMMIT: what was committed with it shows who was in the batch.
    await sql`create table parents (id integer primary key)`.execute(db.kysely);
    await sql`create table children (id integer primary key, parent_id integer not null references parents(id) deferrable initially deferred)`.execute(
      db.kysely,
    );
    // Queued before the first transaction finishes, so it runs before that batch's COMMIT.
    const sameTurn = new Promise((resolve) => setImmediate(resolve));
    const first = notes.transaction().execute((trx) => insert(trx, 'first'));
    // Another request's transaction, after the first one has finished, in the same turn.
    await sameTurn;
    const second = notes
      .transaction()
      .execute((trx) => sql`insert into children (parent_id) values (7)`.execute(trx));
    const results = await Promise.allSettled([first, second]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });

  it('finishes the transactions under way when closed, then refuses new ones', async () => {
    const all = Array.from({ length: 20 }, (_, i) => `note ${i}`);
    const writes = all.map((text) => notes.transaction().execute((trx) => insert(trx, text)));
    // Once the first is written, the others are waiting for the write connection.
    await writes[0];
    const closed = db.close();
    await Promise.all(writes);
    await closed;
    expect(committedTexts().sort()).toEqual([...all].sort());
    await expect(insert(notes, 'too late')).rejects.toThrow();
    db = open();
  });
});
