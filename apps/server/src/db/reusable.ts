import type { Compilable, CompiledQuery, Kysely } from 'kysely';

/**
 * Stands for an argument (or one item of an array argument) while a query is built once: Kysely
 * takes it for a value, so it comes out of the compiler as a parameter in the place the argument's
 * value goes.
 */
class Slot {
  readonly argument: number;
  readonly item: number | null;
  constructor(argument: number, item: number | null) {
    this.argument = argument;
    this.item = item;
  }
}

/** A query compiled once: its SQL, and per parameter either a constant or the slot it comes from. */
interface Template {
  compiled: CompiledQuery;
  slots: (Slot | null)[];
}

/** Shapes kept per query and dialect: one per length of its array arguments (a post's mentions). */
const SHAPES_KEPT = 16;

/** Longer arrays (a call tree's thousands of rows) are built the ordinary way, each time. */
const MAX_ITEMS_KEPT = 64;

/**
 * Under the test runner every run of a reusable query is also built the ordinary way and compared:
 * a builder whose SQL depends on its arguments' values (not only the lengths of its arrays) fails
 * the tests that run it instead of running the wrong SQL.
 */
const CHECK_EACH_RUN = process.env.VITEST !== undefined;

/** Each argument as the builder sees it the first time: a slot, or an array of slots as long. */
function slotsFor(args: readonly unknown[]): unknown[] {
  return args.map((value, argument) =>
    Array.isArray(value) ? value.map((_, item) => new Slot(argument, item)) : new Slot(argument, null),
  );
}

/**
 * The lengths of the array arguments: queries with `in` lists compile differently for each. Null
 * when an array is too long to keep its query.
 */
function shapeOf(args: readonly unknown[]): string | null {
  let shape = '';
  for (const value of args) {
    if (!Array.isArray(value)) shape += '.,';
    else if (value.length > MAX_ITEMS_KEPT) return null;
    else shape += `${value.length},`;
  }
  return shape;
}

function argumentIn(slot: Slot, args: readonly unknown[]): unknown {
  const value = args[slot.argument];
  return slot.item === null ? value : (value as unknown[])[slot.item];
}

/**
 * A query that Kysely builds and compiles once per dialect (and per length of its array arguments)
 * and that then runs with each call's arguments put in its parameters. Building a query is about a
 * fifth of a post's time on the main thread (`docs/benchmarks.md`); the hot statements of a post and
 * of every topic page are written with this.
 *
 * The builder must only hand its arguments to Kysely as values (`where`, `values`, `set`, `sql`
 * templates, `in` lists of an array argument): the first call passes stand-ins, never the real
 * values, so a builder that branches on a value, reads a property of one or leaves out a column of
 * an `undefined` one would build the wrong SQL. `undefined` runs as SQL null. The tests check this on
 * every run (see `CHECK_EACH_RUN`). A Kysely with plugins builds the query each time, as any other.
 */
export function reusable<A extends readonly unknown[], R, DB>(
  build: (db: Kysely<DB>, ...args: A) => Compilable<R>,
): (db: Kysely<DB>, ...args: A) => Promise<R[]> {
  // Per dialect: the adapter is shared by a Kysely instance and its transactions.
  const templates = new WeakMap<object, Map<string, Template>>();

  function templateFor(db: Kysely<DB>, args: A, shape: string): Template {
    const adapter = db.getExecutor().adapter;
    let shapes = templates.get(adapter);
    if (!shapes) {
      shapes = new Map();
      templates.set(adapter, shapes);
    }
    let template = shapes.get(shape);
    if (!template) {
      const compiled = build(db, ...(slotsFor(args) as unknown as A)).compile();
      template = { compiled, slots: compiled.parameters.map((p) => (p instanceof Slot ? p : null)) };
      if (shapes.size >= SHAPES_KEPT) shapes.delete(shapes.keys().next().value as string);
      shapes.set(shape, template);
    }
    return template;
  }

  return async (db, ...args) => {
    // A Kysely with plugins (the tests' statement recorders) transforms each query: built each time.
    const shape = db.getExecutor().plugins.length > 0 ? null : shapeOf(args);
    if (shape === null) return (await db.executeQuery(build(db, ...args))).rows;
    const { compiled, slots } = templateFor(db, args, shape);
    const parameters = compiled.parameters.map((constant, i) => {
      const slot = slots[i];
      return slot ? argumentIn(slot, args) : constant;
    });
    const query: CompiledQuery<R> = { ...compiled, parameters };
    if (CHECK_EACH_RUN) {
      const ordinary = build(db, ...args).compile();
      const same =
        ordinary.sql === query.sql &&
        ordinary.parameters.length === parameters.length &&
        ordinary.parameters.every((p, i) => Object.is(p, parameters[i]));
      if (!same) {
        throw new Error(
          `reusable query built differently for these arguments:\n${ordinary.sql}\n${query.sql}\n` +
            `${JSON.stringify(ordinary.parameters)}\n${JSON.stringify(parameters)}`,
        );
      }
    }
    return (await db.executeQuery(query)).rows;
  };
}
