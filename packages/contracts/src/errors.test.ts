import { describe, expect, it } from 'vitest';
import { ErrorEnvelope, okEnvelope } from './envelope.ts';
import { ErrorCode, errorStatus } from './errors.ts';
import { HealthResponse } from './system.ts';

describe('envelope codes', () => {
  it('are unique, with 0 for success and 4404 for terms not accepted', () => {
    const codes = Object.values(ErrorCode);
    expect(new Set(codes).size).toBe(codes.length);
    expect(ErrorCode.ok).toBe(0);
    expect(ErrorCode.termsNotAccepted).toBe(4404);
  });

  it('each have an HTTP status of their class', () => {
    for (const [name, code] of Object.entries(ErrorCode)) {
      const status = errorStatus[name as keyof typeof ErrorCode];
      if (code === 0) expect(status).toBe(200);
      else expect(Math.floor(status / 100)).toBe(Math.floor(code / 1000));
    }
  });
});

describe('envelopes', () => {
  it('accept a success with its data and refuse a wrong shape', () => {
    const schema = okEnvelope(HealthResponse);
    expect(
      schema.safeParse({ code: 0, data: { status: 'ok', version: '1', uptimeSeconds: 1 } }).success,
    ).toBe(true);
    expect(schema.safeParse({ code: 1, data: {} }).success).toBe(false);
  });

  it('carry the field and reason of a validation failure', () => {
    const parsed = ErrorEnvelope.parse({
      code: ErrorCode.validation,
      message: 'body.path: required',
      details: [{ field: 'body.path', reason: 'required' }],
    });
    expect(parsed.details?.[0]?.field).toBe('body.path');
  });
});
