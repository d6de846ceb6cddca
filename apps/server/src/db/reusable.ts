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

/**
 * Shapes kept per query and dialect: one per combination of the lengths of its array arguments (a
 * post's mentions, a page's posts and their authors).
 */
const SHAPES_KEPT = 64;

/** Longer arrays (a call tree's thousands of rows) are built the ordinary way, each time; pages are 100 at most. */
const MAX_ITEMS_KEPT = 100;

/**
 * Under the test runner every run of a reusable query is also built the ordinary way and compared:
 * a builder whose SQL depends on its arguments' values (beyond what its shape holds) fails the
 * tests that run it instead of running the wrong SQL.
 */
const CHECK_EACH_RUN = process.env.VITEST !== undefined;

/**
 * Each argument as the builder sees it the first time: a slot, or the value itself when it is
 * part of the shape (`undefined`, a boolean); an array as long, of the same.
 */
function slotsFor(args: readonly unknown[]): unknown[] {
  const standIn = (value: unknown, argument: number, item: number | null) =>
    value === undefined || typeof value === 'boolean' ? value : new Slot(argument, item);
  return args.map((value, argument) =>
    Array.isArray(value)
      ? value.map((v, item) => standIn(v, argument, item))
      : standIn(value, argument, null),
  );
}

function shapeOfValue(value: unknown): string {
  if (value === undefined) return 'u';
  if (value === true) return 't';
  if (value === false) return 'f';
  return '.';
}

/**
 * What the builder may branch on: the lengths of the array arguments (`in` lists compile
 * differently for each), which arguments (or items of an array) are `undefined` (optional filters)
 * and the booleans. Null when an array is too long to keep its query.
 */
function shapeOf(args: readonly unknown[]): string | null {
  let shape = '';
  for (const value of args) {
    if (Array.isArray(value)) {
      if (value.length > MAX_ITEMS_KEPT) return null;
      shape += '[';
      for (const item of value) shape += shapeOfValue(item);
      shape += '],';
    } else shape += `${shapeOfValue(value)},`;
  }
  return shape;
}

function argumentIn(slot: Slot, args: readonly unknown[]): unknown {
  const value = args[slot.argument];
  return slot.item === null ? value : (value as unknown[])[slot.item];
}

/**
 * A query that Kysely builds and compiles once per dialect (and per shape of its arguments, below)
 * and that then runs with each call's arguments put in its parameters. Building a query is about a
 * fifth of a post's time on the main thread (`docs/benchmarks.md`); the hot statements of a post and
 * of every topic page are written with this.
 *
 * The builder may branch on whether an argument is `undefined`, on a boolean and on an array's
 * length; any other argument it must only hand to Kysely as a value (`where`, `values`, `set`, `sql`
 * templates, `in` lists of an array argument): the first call passes stand-ins, never the real
 * values, so a builder that branches on a string, reads a property of an object or transforms a
 * value would build the wrong SQL. The tests check this on every run (see `CHECK_EACH_RUN`). A
 * Kysely with plugins builds the query each time, as any other.
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
    if (template) {
      // Least recently used first out: a hit moves to the end.
      shapes.delete(shape);
      shapes.set(shape, template);
    } else {
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
