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

/**
 * No answer came back: the request could not reach the server (no connection, DNS, a refused or cut
 * connection) or took longer than its timeout. The caller may try again later; nothing was said by
 * the server. Its message is what the error dialog shows.
 */
export class NetworkError extends Error {
  override name = 'NetworkError';
  /** True when the request was given up after its timeout rather than failing at once. */
  readonly timedOut: boolean;

  constructor(message: string, options: { timedOut?: boolean; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.timedOut = options.timedOut ?? false;
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

/** What an API call can reject with: a failed envelope, an HTTP error, or a network error. */
export type ApiFailure = ErrorEnvelope | HttpError | NetworkError;
