import { fstatSync, fsync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { CompiledQuery, type Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from './index.ts';
import { SqliteWriter, WriterActivity } from './sqlite-writer.ts';

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

describe("the write-ahead log's fsync, off the event loop", () => {
  let dir: string;
  let writer: SqliteWriter;
  /** The fsyncs asked for and not yet let through: the file, and how to finish it. */
  const flushes: { fd: number; finish(error?: Error): void }[] = [];
  const activity = new WriterActivity();
  let mark = 0;

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'btalk-wal-'));
    flushes.length = 0;
    activity.markOf = () => mark;
    writer = new SqliteWriter(path.join(dir, 'w.sqlite'), activity, (fd, done) => {
      flushes.push({ fd, finish: (error) => fsync(fd, (real) => done(error ?? real)) });
    });
  });
  afterEach(async () => {
    const closed = writer.close();
    for (let i = 0; i < 10; i++) {
      for (const flush of flushes.splice(0)) flush.finish();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await closed;
    rmSync(dir, { recursive: true, force: true });
  });

  /** One transaction on the writer: the statement, then its release; answers when it is durable. */
  async function write(statement: string): Promise<void> {
    await writer.lock();
    writer.begin();
    writer.query(CompiledQuery.raw(statement));
    await writer.release();
  }

  function rowsSeenByAnotherConnection(): number {
    const other = new DatabaseSync(path.join(dir, 'w.sqlite'));
    try {
      return Number(other.prepare('select count(*) as n from t').get()?.n);
    } finally {
      other.close();
    }
  }

  const turn = () => new Promise((resolve) => setImmediate(resolve));

  it("answers a write only after the log's fsync, and moves the durable mark then", async () => {
    const created = write('create table t (x)');
    await turn();
    await turn();
    expect(flushes).toHaveLength(1);
    // The fsync is of the write-ahead log itself.
    expect(fstatSync(flushes[0]!.fd).ino).toBe(statSync(path.join(dir, 'w.sqlite-wal')).ino);
    flushes.shift()!.finish();
    await created;

    mark = 7;
    let answered = false;
    const written = write('insert into t values (1)').then(() => {
      answered = true;
    });
    await turn();
    await turn();
    // Committed (another connection reads it) but not answered, and the mark not moved, until the
    // fsync is done.
    expect(rowsSeenByAnotherConnection()).toBe(1);
    expect(answered).toBe(false);
    expect(activity.durableMark).toBe(0);
    expect(flushes).toHaveLength(1);

    // A second write meanwhile waits in the open batch (one fsync at a time, and the batch grows
    // while one is under way): not committed yet.
    mark = 8;
    let secondAnswered = false;
    const second = write('insert into t values (2)').then(() => {
      secondAnswered = true;
    });
    await turn();
    await turn();
    expect(rowsSeenByAnotherConnection()).toBe(1);
    expect(flushes).toHaveLength(1);

    // The first fsync ends: the first write is answered, and the batch is committed and flushed.
    flushes.shift()!.finish();
    await written;
    expect(activity.durableMark).toBe(7);
    expect(secondAnswered).toBe(false);
    expect(rowsSeenByAnotherConnection()).toBe(2);
    expect(flushes).toHaveLength(1);
    flushes.shift()!.finish();
    await second;
    expect(activity.durableMark).toBe(8);
  });

  it('fails the writes of a failed fsync, and leaves the durable mark where it was', async () => {
    const created = write('create table t (x)');
    await turn();
    await turn();
    flushes.shift()!.finish();
    await created;
    const before = activity.durableMark;
    mark = 9;
    const failed = write('insert into t values (1)');
    await turn();
    await turn();
    flushes.shift()!.finish(new Error('EIO: the disk said no'));
    await expect(failed).rejects.toThrow(/EIO/);
    expect(activity.durableMark).toBe(before);
  });
});
