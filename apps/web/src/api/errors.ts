import type { ErrorEnvelope } from '@btalk/contracts';
import { ErrorCode } from '@btalk/contracts/constants';

/**
 * An HTTP failure whose body is not an API envelope (a proxy's 502 page, a lost route). Its message
 * is the status code, so the error dialog shows "<status> Error Occurred!" and the apology.
 */
export class HttpError extends Error {
  override name = 'HttpError';
  readonly status: number;
  readonly body: unknown;

  constructor(status: number, body: unknown) {
    super(String(status));
    this.status = status;
    this.body = body;
  }
}

/** Whether a value is a failed API envelope `{code, message}` (what the client rejects with). */
export function isErrorEnvelope(value: unknown): value is ErrorEnvelope {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { code?: unknown }).code === 'number' &&
    (value as { code: number }).code !== ErrorCode.ok &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}

/** What an API call can reject with: a failed envelope, an HTTP error, or a network error from axios. */
export type ApiFailure = ErrorEnvelope | HttpError | Error;
