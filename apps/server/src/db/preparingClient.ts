import pg from 'pg';

/** How many statements a connection prepares at most; further ones run unprepared, as before. */
export const MAX_PREPARED_PER_CONNECTION = 150;

/**
 * Statements with more values than this run unprepared: a list of ids (`in ($1, ..., $n)`) makes a
 * new text for each length, and would fill a connection's prepared statements with one-offs.
 */
export const MAX_PREPARED_VALUES = 32;

/** PostgreSQL's refusal to run a prepared statement whose table has since gained or lost columns. */
function isStaleResultType(error: unknown): boolean {
  const e = error as { code?: string; routine?: string } | null;
  return e?.code === '0A000' && e.routine === 'RevalidateCachedQuery';
}

/**
 * A node-postgres client that prepares each parameterised statement once per connection and then
 * only binds and executes it: PostgreSQL parses, analyses and plans a statement sent unnamed every
 * time, and Kysely sends every statement unnamed. In the crisis minute that was about a third of
 * PostgreSQL's CPU per answer (docs/benchmarks.md). Statements get names of their own per
 * connection (`btalk_<n>`), at most `MAX_PREPARED_PER_CONNECTION` of them; statements without values
 * (migrations' DDL, BEGIN, COMMIT) keep the simple protocol, which allows several commands in one.
 *
 * A prepared `select *` fails once its table has changed columns (a migration run by another
 * instance during a rolling upgrade): the statement is then prepared afresh under a new name, and
 * run again at once when no transaction was open; inside a transaction the error stands, the
 * transaction rolls back, and the next use of the statement works.
 */
export class PreparingClient extends pg.Client {
  readonly #names = new Map<string, string>();
  #made = 0;

  constructor(config?: string | pg.ClientConfig) {
    super(config);
    const base = pg.Client.prototype.query.bind(this) as (...args: unknown[]) => unknown;
    const query = (...args: unknown[]) => {
      const [text, values, callback] = args;
      const name =
        typeof text === 'string' && Array.isArray(values) && callback === undefined
          ? this.#nameOf(text, values.length)
          : undefined;
      if (!name) return base(...args);
      return (base({ name, text, values }) as Promise<pg.QueryResult>).catch((error: unknown) => {
        if (!isStaleResultType(error)) throw error;
        // Prepared afresh under a new name at its next use; run again now unless a transaction failed.
        this.#names.delete(text as string);
        if (this.getTransactionStatus() !== 'I') throw error;
        return base(text, values);
      });
    };
    this.query = query as typeof this.query;
  }

  /** The name of the statement `text` on this connection, or undefined to run it unprepared. */
  #nameOf(text: string, valueCount: number): string | undefined {
    if (valueCount === 0 || valueCount > MAX_PREPARED_VALUES) return undefined;
    let name = this.#names.get(text);
    if (name) return name;
    if (this.#made >= MAX_PREPARED_PER_CONNECTION) return undefined;
    this.#made += 1;
    name = `btalk_${this.#made}`;
    this.#names.set(text, name);
    return name;
  }
}
