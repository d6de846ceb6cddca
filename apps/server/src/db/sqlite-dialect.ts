import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
  SelectQueryNode,
  SqliteAdapter,
  type SqliteDatabase,
  SqliteDialect,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import { adapt, openSqliteConnection } from './sqlite-connection.ts';
import { SqliteWriter, type WriterActivity } from './sqlite-writer.ts';

/**
 * One use of the database by Kysely: a single query, or a transaction. A read outside a
 * transaction runs at once on the read connection (WAL lets it read the last committed state, never
 * a batch that is not yet durable); a transaction, and a write on its own, take the write connection
 * and run in its batch (`sqlite-writer.ts`), and are answered once the batch is committed.
 */
class SqliteSession implements DatabaseConnection {
  readonly #writer: SqliteWriter;
  readonly #reader: SqliteDatabase;
  #holdsLock = false;
  #inTransaction = false;

  constructor(writer: SqliteWriter, reader: SqliteDatabase) {
    this.#writer = writer;
    this.#reader = reader;
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    if (this.#inTransaction) return this.#writer.query<R>(compiled);
    if (SelectQueryNode.is(compiled.query)) {
      return { rows: this.#reader.prepare(compiled.sql).all(compiled.parameters) as R[] };
    }
    // Anything else on its own (a write, a pragma, raw SQL) is a transaction of its own.
    await this.begin();
    let result: QueryResult<R>;
    try {
      result = this.#writer.query<R>(compiled);
    } catch (error) {
      this.rollback();
      throw error;
    }
    await this.commit();
    return result;
  }

  async *streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (this.#inTransaction || !SelectQueryNode.is(compiled.query)) {
      throw new Error('SQLite streams only reads outside a transaction');
    }
    for (const row of this.#reader.prepare(compiled.sql).iterate(compiled.parameters))
      yield { rows: [row as R] };
  }

  async begin(): Promise<void> {
    await this.#writer.lock();
    this.#holdsLock = true;
    this.#writer.begin();
    this.#inTransaction = true;
  }

  commit(): Promise<void> {
    const durable = this.#writer.release();
    this.#inTransaction = false;
    this.#holdsLock = false;
    return durable;
  }

  rollback(): void {
    // After a failed COMMIT there is nothing left to undo: the batch was rolled back.
    if (!this.#inTransaction) return;
    this.#inTransaction = false;
    this.#holdsLock = false;
    this.#writer.rollback();
  }

  release(): void {
    if (!this.#holdsLock) return;
    this.#holdsLock = false;
    this.#writer.unlock();
  }
}

/** Kysely's driver for a SQLite file: a read connection, and the write connection with group commit. */
class SqliteFileDriver implements Driver {
  readonly #filename: string;
  readonly #activity: WriterActivity | undefined;
  #writer: SqliteWriter | undefined;
  #reader: SqliteDatabase | undefined;

  constructor(filename: string, activity: WriterActivity | undefined) {
    this.#filename = filename;
    this.#activity = activity;
  }

  async init(): Promise<void> {
    // The writer first: it creates the file and turns WAL on before the reader opens it.
    this.#writer = new SqliteWriter(this.#filename, this.#activity);
    const reader = openSqliteConnection(this.#filename);
    // Reads only: writes go through the writer's batches.
    reader.exec('PRAGMA query_only = ON');
    this.#reader = adapt(reader);
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new SqliteSession(this.#writer!, this.#reader!);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as SqliteSession).begin();
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as SqliteSession).commit();
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    (connection as SqliteSession).rollback();
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as SqliteSession).release();
  }

  async destroy(): Promise<void> {
    await this.#writer?.close();
    this.#reader?.close();
  }
}

/**
 * Opens a SQLite database with the pragmas BTalk relies on (WAL, and an acknowledged write survives
 * a kill -9 and a power cut). A file gets a read connection and a write connection with group commit
 * (`sqlite-writer.ts`): one fsync for the writes of many requests, run off the event loop, each
 * write answered after it.
 * `:memory:` (most tests) is one database per connection, so it keeps Kysely's single connection.
 * `activity` is told how busy the write connection is (a file only).
 */
export function createSqliteDialect(filename: string, activity?: WriterActivity): Dialect {
  if (filename === ':memory:') {
    return new SqliteDialect({ database: () => Promise.resolve(adapt(openSqliteConnection(filename))) });
  }
  return {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new SqliteFileDriver(filename, activity),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  };
}
