import { isDeepStrictEqual } from 'node:util';
import type { FastifySerializerCompiler } from 'fastify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';

/** Thrown outside production when an answer is not exactly what its response schema describes. */
export class ResponseShapeError extends Error {
  override name = 'ResponseShapeError';
}

/** The answer as JSON would carry it (no undefined, no key order), to compare two of them. */
function asJson(json: string): unknown {
  return JSON.parse(json);
}

/**
 * The serializer of routes with a zod response schema. Outside production (tests, development)
 * every answer is parsed with its schema, as fastify-type-provider-zod does (a mismatch is a 500),
 * and must also come out of the parse unchanged: no key stripped, nothing transformed. Since the
 * presenters answer exactly the contract, production can skip the parse and send `JSON.stringify`:
 * re-validating a topic page took about 8 % of its CPU (docs/benchmarks.md, issue 14 point 4).
 */
export function responseSerializerCompiler(checkAnswers: boolean): FastifySerializerCompiler<unknown> {
  if (!checkAnswers) return () => (data) => JSON.stringify(data);
  return (route) => {
    const parsed = zodSerializerCompiler(route as never);
    return (data) => {
      const json = parsed(data);
      const plain = JSON.stringify(data);
      if (json !== plain && !isDeepStrictEqual(asJson(json), asJson(plain))) {
        throw new ResponseShapeError(
          `${route.method} ${route.url}: the answer differs from its response schema's output (a key the contract lacks, or a transformed value); production sends it as is`,
        );
      }
      return json;
    };
  };
}
