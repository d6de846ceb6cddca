import { closeSync, fsync, openSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';
import type { CompiledQuery, QueryResult, SqliteDatabase } from 'kysely';
import { adapt, openSqliteConnection } from './sqlite-connection.ts';

/** The savepoint each transaction of a batch runs in. */
const SAVEPOINT = 'btalk_write';
/** A batch is committed once this many transactions are in it, even if more are waiting. */
const MAX_BATCH = 64;

/**
 * What the write connection tells whoever watches it (the metrics, metrics/database.ts): how many
 * transactions wait for it now, and the size of each batch it commits.
 */
export class WriterActivity {
  /** Transactions waiting for the write connection (not counting the one holding it). */
  waiting = 0;
  readonly #listeners = new Set<(size: number) => void>();

  /** Calls `listener` with the number of transactions of each batch committed; answers how to stop. */
  onCommit(listener: (size: number) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Called by the writer after a successful COMMIT of `size` transactions. */
  committed(size: number): void {
    for (const listener of this.#listeners) listener(size);
  }

  /**
   * What to note of the database after each COMMIT, on the write connection (db/index.ts: the event
   * log's last sequence number); `durableMark` is the note of the last COMMIT known to be on disk.
   */
  markOf: ((connection: DatabaseSync) => number) | null = null;
  /** The mark of the last COMMIT made durable: the realtime hub reads the event log up to it. */
  durableMark = 0;
}

/** How the write-ahead log is flushed to disk (the tests hold it back to see the order of things). */
export type SyncFile = (fd: number, done: (error: Error | null) => void) => void;

/** A transaction released into the open batch, waiting for the batch's COMMIT. */
interface Waiting {
  resolve(): void;
  reject(error: Error): void;
}

/**
 * Group commit on the SQLite write connection. One transaction at a time holds the connection (a
 * FIFO lock); the first of a batch opens the outer transaction (`BEGIN IMMEDIATE`) and each runs in
 * a savepoint, so that a failing one is rolled back alone. A finished transaction releases its
 * savepoint and the lock, and waits: the batch is committed after the event loop's turn, so that
 * the transactions of the requests that arrived meanwhile join it, and one COMMIT makes all of them
 * durable. The COMMIT writes the write-ahead log without waiting for the disk (`synchronous =
 * NORMAL`); the log's fsync runs in libuv's thread pool (`#sync`), so the event loop never waits for
 * the disk, and only after it is each transaction's commit resolved (or rejected, if the COMMIT or
 * the fsync failed): an answered write is on disk, as with `synchronous = FULL`. Between the COMMIT
 * and the fsync (about a millisecond) the other connection may already read the batch; the realtime
 * hub reads the event log only up to `WriterActivity.durableMark`, so no event is sent before it is
 * on disk.
 */
export class SqliteWriter {
  readonly #connection: DatabaseSync;
  readonly #db: SqliteDatabase;
  readonly #queue: (() => void)[] = [];
  #locked = false;
  #closed = false;
  #batchOpen = false;
  #savepointOpen = false;
  #commitScheduled = false;
  #batch: Waiting[] = [];
  readonly #activity: WriterActivity;

  readonly #walFile: string;
  readonly #syncFile: SyncFile;
  #walFd: number | null = null;
  /** Committed transactions, each with the mark of its COMMIT, waiting for the next fsync. */
  #unsynced: { waiting: Waiting[]; mark: number }[] = [];
  #syncing = false;
  #synced: (() => void) | null = null;

  /** Opens the write connection of a database file; `activity` is told how busy it is. */
  constructor(filename: string, activity: WriterActivity = new WriterActivity(), syncFile: SyncFile = fsync) {
    this.#connection = openSqliteConnection(filename);
    // COMMIT writes the log without waiting for the disk; the log is flushed by `#sync`, off the
    // event loop, and a transaction is answered only after that (durable as with FULL).
    this.#connection.exec('PRAGMA synchronous = NORMAL');
    this.#db = adapt(this.#connection);
    this.#activity = activity;
    this.#walFile = `${filename}-wal`;
    this.#syncFile = syncFile;
    activity.durableMark = this.#mark();
  }

  #mark(): number {
    return this.#activity.markOf ? this.#activity.markOf(this.#connection) : 0;
  }

  /** Waits until the write connection is this caller's. */
  lock(): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('the database is closed'));
    if (!this.#locked && this.#queue.length === 0) {
      this.#locked = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.#queue.push(resolve);
      this.#activity.waiting = this.#queue.length;
    });
  }

  /** Gives the connection to the next caller; when nobody waits, the batch is committed soon. */
  unlock(): void {
    this.#locked = false;
    if (this.#batchOpen && this.#batch.length >= MAX_BATCH) this.#commit();
    const next = this.#queue.shift();
    this.#activity.waiting = this.#queue.length;
    if (next) {
      this.#locked = true;
      next();
    } else if (this.#batchOpen) {
      this.#scheduleCommit();
    }
  }

  /**
   * Commits the batch after this turn of the event loop, unless a transaction holds the connection
   * then, or the log's fsync is under way: the batch then grows until it ends (one COMMIT and one
   * fsync for all that came meanwhile, as when the fsync held the event loop).
   */
  #scheduleCommit(): void {
    if (this.#commitScheduled) return;
    this.#commitScheduled = true;
    setImmediate(() => {
      this.#commitScheduled = false;
      if (this.#batchOpen && !this.#locked && !this.#syncing) this.#commit();
    });
  }

  #commit(): void {
    const batch = this.#batch;
    this.#batch = [];
    this.#batchOpen = false;
    let failure: Error | null = null;
    try {
      this.#connection.exec('COMMIT');
    } catch (error) {
      failure = error as Error;
      // A failed COMMIT can leave the transaction open: end it, so that none of it is written later.
      if (this.#connection.isTransaction) this.#connection.exec('ROLLBACK');
    }
    if (failure) {
      for (const waiting of batch) waiting.reject(failure);
      return;
    }
    this.#activity.committed(batch.length);
    this.#unsynced.push({ waiting: batch, mark: this.#mark() });
    this.#sync();
  }

  /**
   * Flushes the write-ahead log to disk in libuv's thread pool, then answers every transaction
   * committed before the flush began. One flush at a time: the COMMITs made meanwhile share the
   * next one. A failed flush fails its transactions (their writes may or may not be on disk).
   */
  #sync(): void {
    if (this.#syncing) return;
    if (this.#unsynced.length === 0) {
      this.#synced?.();
      return;
    }
    const flushing = this.#unsynced;
    this.#unsynced = [];
    this.#syncing = true;
    const done = (error: Error | null) => {
      this.#syncing = false;
      for (const { waiting } of flushing) {
        for (const one of waiting) {
          if (error) one.reject(error);
          else one.resolve();
        }
      }
      if (!error) this.#activity.durableMark = Math.max(this.#activity.durableMark, flushing.at(-1)!.mark);
      if (this.#batchOpen && !this.#locked) this.#commit();
      else this.#sync();
    };
    try {
      // The log file is kept open for the connection's life. None yet: nothing was written to it.
      this.#walFd ??= openSync(this.#walFile, 'r');
    } catch (error) {
      done((error as NodeJS.ErrnoException).code === 'ENOENT' ? null : (error as Error));
      return;
    }
    this.#syncFile(this.#walFd, done);
  }

  /** Runs `work` on the connection; notices when SQLite has rolled the whole batch back. */
  #run<T>(work: () => T): T {
    try {
      return work();
    } finally {
      if (this.#batchOpen && !this.#connection.isTransaction) {
        // Some errors (a full disk, an I/O error) end the outer transaction: every transaction
        // released into the batch is lost with it, and must not be acknowledged.
        this.#batchOpen = false;
        this.#savepointOpen = false;
        const lost = new Error('the write was rolled back with its batch');
        for (const waiting of this.#batch.splice(0)) waiting.reject(lost);
      }
    }
  }

  /** Opens the caller's transaction (a savepoint in the batch); the caller holds the lock. */
  begin(): void {
    if (!this.#batchOpen) {
      this.#connection.exec('BEGIN IMMEDIATE');
      this.#batchOpen = true;
    }
    this.#run(() => this.#connection.exec(`SAVEPOINT ${SAVEPOINT}`));
    this.#savepointOpen = true;
  }

  /** Runs one statement of the caller's transaction. */
  query<R>(compiled: CompiledQuery): QueryResult<R> {
    return this.#run(() => {
      const statement = this.#db.prepare(compiled.sql);
      if (statement.reader) return { rows: statement.all(compiled.parameters) as R[] };
      const { changes, lastInsertRowid } = statement.run(compiled.parameters);
      return {
        numAffectedRows: changes === undefined ? undefined : BigInt(changes),
        insertId: lastInsertRowid === undefined ? undefined : BigInt(lastInsertRowid),
        rows: [],
      };
    });
  }

  /**
   * Ends the caller's transaction successfully and gives up the lock: the returned promise is
   * resolved once the batch's COMMIT has made it durable. Throws (holding the lock) if the savepoint
   * cannot be released.
   */
  release(): Promise<void> {
    if (!this.#savepointOpen) throw new Error('the write was rolled back with its batch');
    this.#run(() => this.#connection.exec(`RELEASE ${SAVEPOINT}`));
    this.#savepointOpen = false;
    const durable = new Promise<void>((resolve, reject) => this.#batch.push({ resolve, reject }));
    this.unlock();
    return durable;
  }

  /** Undoes the caller's transaction alone (the rest of the batch stays) and gives up the lock. */
  rollback(): void {
    try {
      if (!this.#savepointOpen) return;
      this.#savepointOpen = false;
      try {
        this.#run(() => this.#connection.exec(`ROLLBACK TO ${SAVEPOINT}; RELEASE ${SAVEPOINT}`));
      } catch (error) {
        // The savepoint may still hold the failed transaction's writes: never commit them.
        this.#run(() => this.#connection.exec('ROLLBACK'));
        throw error;
      }
    } finally {
      this.unlock();
    }
  }

  /** Waits for the transactions under way, commits the last batch and closes the connection. */
  async close(): Promise<void> {
    const last = this.lock();
    this.#closed = true;
    await last;
    if (this.#batchOpen) this.#commit();
    if (this.#syncing || this.#unsynced.length > 0) {
      await new Promise<void>((resolve) => {
        this.#synced = resolve;
      });
    }
    if (this.#walFd !== null) closeSync(this.#walFd);
    this.#db.close();
  }
}
