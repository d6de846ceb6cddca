// Imports nothing (no zod): the web app takes the codes from `@btalk/contracts/constants`.

/**
 * The catalogue of envelope codes. Clients act on the envelope code, whatever the HTTP status.
 * Codes are stable: never renumber one, only add.
 */
export const ErrorCode = {
  /** Success: `data` holds the answer. */
  ok: 0,
  /** The request body, query or params did not pass validation (HTTP 400). */
  validation: 4000,
  /** No valid session: missing, expired or revoked access token (HTTP 401). */
  unauthenticated: 4010,
  /** The `x-api-key` header is missing or wrong (HTTP 401). */
  badApiKey: 4011,
  /** The caller may not do this (HTTP 403). */
  forbidden: 4030,
  /**
   * The directory needs the person (or an administrator) to consent before BTalk may call Graph for
   * them: the Teams tab opens the directory's consent popup, then signs in again (HTTP 403).
   */
  consentRequired: 4031,
  /** The thing does not exist, or the caller may not know it exists (HTTP 404). */
  notFound: 4040,
  /** The current terms of use are not accepted yet: the client goes to /terms (HTTP 403). */
  termsNotAccepted: 4404,
  /** The terms version sent is no longer the current one: fetch the current terms and accept those (HTTP 409). */
  termsOutdated: 4405,
  /** The change conflicts with the current state (HTTP 409). */
  conflict: 4090,
  /**
   * The person's uploads not yet in a post would pass their quota (files or bytes): post them, or
   * wait for the clean-up of unposted files (HTTP 409).
   */
  quotaExceeded: 4091,
  /** The body or a file is larger than allowed (HTTP 413). */
  tooLarge: 4130,
  /** Too many requests: try again later (HTTP 429). */
  rateLimited: 4290,
  /** Something failed on the server; the log has the details under the request id (HTTP 500). */
  internal: 5000,
  /** A dependency of the server (database, directory) is not reachable (HTTP 503). */
  unavailable: 5030,
} as const;

/** Name of an envelope code, e.g. `validation`. */
export type ErrorCodeName = keyof typeof ErrorCode;
/** Numeric envelope code. */
export type ErrorCodeValue = (typeof ErrorCode)[ErrorCodeName];

/** The HTTP status that goes with each envelope code. */
export const errorStatus: Record<ErrorCodeName, number> = {
  ok: 200,
  validation: 400,
  unauthenticated: 401,
  badApiKey: 401,
  forbidden: 403,
  consentRequired: 403,
  notFound: 404,
  termsNotAccepted: 403,
  termsOutdated: 409,
  conflict: 409,
  quotaExceeded: 409,
  tooLarge: 413,
  rateLimited: 429,
  internal: 500,
  unavailable: 503,
};
