import { invalid } from './errors.ts';

/** The position after the last item of a page: the values of the list's sort key. */
export type CursorValues = (string | number)[];

/** Makes an opaque cursor from the sort key of a page's last item. */
export function encodeCursor(values: CursorValues): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url');
}

/**
 * Reads a cursor made by `encodeCursor` for a list whose key has these types; anything else is a
 * 400 naming `query.cursor`.
 */
export function decodeCursor<T extends CursorValues>(
  raw: string | undefined,
  types: { [K in keyof T]: T[K] extends number ? 'number' : 'string' },
): T | null {
  if (raw === undefined) return null;
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    values = null;
  }
  if (
    !Array.isArray(values) ||
    values.length !== types.length ||
    values.some((v, i) => typeof v !== types[i])
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
