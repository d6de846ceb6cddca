import type { FastifyInstance } from 'fastify';
import { invalid } from './errors.ts';

const NUL = '\u0000';
const REASON = 'contains a NUL character (\\u0000), which no text may hold: remove it';

/** Parsed data (JSON, a query, path parameters, whatever their prototype), not bytes or a stream. */
function isParsedData(value: unknown): value is object {
  if (value === null || typeof value !== 'object') return false;
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return false;
  return typeof (value as { pipe?: unknown }).pipe !== 'function';
}

/** The path (`body.memberIds.2`) of the first string in `value` that holds a NUL, or its key, if any. */
function nulAt(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return value.includes(NUL) ? path : null;
  // JSON bodies are bounded by BODY_LIMIT_BYTES; the depth bound only keeps the walk cheap.
  if (!isParsedData(value) || depth > 64) return null;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes(NUL)) return path;
    const found = nulAt(item, `${path}.${key}`, depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * Refuses NUL characters in path parameters, the query and JSON bodies with a 400 naming the field,
 * before validation: PostgreSQL refuses `\0` in text ("invalid byte sequence for encoding UTF8:
 * 0x00"), so a NUL that reached a query was a 500 there. No text BTalk keeps has a use for one.
 */
export function registerNulByteCheck(app: FastifyInstance) {
  app.addHook('preValidation', (request, _reply, done) => {
    const field =
      nulAt(request.params, 'params') ?? nulAt(request.query, 'query') ?? nulAt(request.body, 'body');
    done(field ? invalid(field, REASON) : undefined);
  });
}
