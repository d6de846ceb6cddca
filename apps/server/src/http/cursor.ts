import { invalid } from './errors.ts';

/** The position after the last item of a page: the values of the list's sort key. */
export type CursorValues = (string | number)[];

/** Makes an opaque cursor from the sort key of a page's last item. */
export function encodeCursor(values: CursorValues): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url');
}

/** What a cursor value holds: an integer, a text, or a timestamp as the database answers it. */
export type CursorType = 'number' | 'string' | 'timestamp';

const ISO_TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?$/;

/** An ISO-8601 date and time that names a real day and time (Date.parse takes 31 February). */
function isTimestamp(v: unknown): boolean {
  const m = typeof v === 'string' ? ISO_TIMESTAMP.exec(v) : null;
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1).map((part) => Number(part ?? 0));
  const date = new Date(Date.UTC(year!, month! - 1, day!));
  return (
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month! - 1 &&
    date.getUTCDate() === day &&
    hour! < 24 &&
    minute! < 60 &&
    second! < 60
  );
}

const CURSOR_VALUE: Record<CursorType, (v: unknown) => boolean> = {
  // Post numbers, ranks and row ids: whole and not negative.
  number: (v) => Number.isSafeInteger(v) && (v as number) >= 0,
  // Names and ids; PostgreSQL refuses a NUL in text.
  string: (v) => typeof v === 'string' && v.length <= 512 && !v.includes('\u0000'),
  // PostgreSQL refuses a malformed timestamp with an error rather than comparing it.
  timestamp: isTimestamp,
};

/**
 * Reads a cursor made by `encodeCursor` for a list whose key has these types. Anything else (not
 * base64url, not JSON, another shape, a value of the wrong type) is a 400 naming `query.cursor`, so
 * that no value a client made up reaches a query.
 */
export function decodeCursor<T extends CursorValues>(
  raw: string | undefined,
  types: { [K in keyof T]: T[K] extends number ? 'number' : 'string' | 'timestamp' },
): T | null {
  if (raw === undefined) return null;
  let values: unknown;
  try {
    values = /^[\w-]+$/.test(raw) ? JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) : null;
  } catch {
    values = null;
  }
  if (
    !Array.isArray(values) ||
    values.length !== types.length ||
    values.some((v, i) => !CURSOR_VALUE[types[i] as CursorType](v))
  ) {
    throw invalid('query.cursor', 'is not a cursor this list gave: start again without it');
  }
  return values as T;
}

/** Splits `limit + 1` fetched rows into a page and the cursor of the next one. */
export function pageOf<Row, Item>(
  rows: Row[],
  limit: number,
  key: (row: Row) => CursorValues,
  present: (rows: Row[]) => Item[] | Promise<Item[]>,
): Promise<{ items: Item[]; nextCursor: string | null }> {
  const more = rows.length > limit;
  const kept = more ? rows.slice(0, limit) : rows;
  const last = kept.at(-1);
  return Promise.resolve(present(kept)).then((items) => ({
    items,
    nextCursor: more && last ? encodeCursor(key(last)) : null,
  }));
}
