import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ResponseShapeError, responseSerializerCompiler } from './serializer.ts';

const schema = z.object({ id: z.string(), count: z.number(), note: z.string().nullable() });
const route = { schema, method: 'GET', url: '/api/things/:id', httpStatus: '200' };

describe('responseSerializerCompiler', () => {
  it('checks answers outside production: the schema, and that its parse changes nothing', () => {
    const serialize = responseSerializerCompiler(true)(route as never);
    expect(JSON.parse(serialize({ note: null, count: 2, id: 'a' }))).toEqual({
      id: 'a',
      count: 2,
      note: null,
    });
    expect(() => serialize({ id: 'a', count: 'two', note: null })).toThrow();
    expect(() => serialize({ id: 'a', count: 2, note: null, secret: 'x' })).toThrow(ResponseShapeError);
  });

  it('sends answers as they are in production, without parsing them again', () => {
    const serialize = responseSerializerCompiler(false)(route as never);
    expect(serialize({ id: 'a', count: 2, note: null })).toBe('{"id":"a","count":2,"note":null}');
    // Not parsed: what the tests above check is trusted here.
    expect(serialize({ id: 'a', count: 'two' })).toBe('{"id":"a","count":"two"}');
  });
});
