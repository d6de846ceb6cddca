import { z } from 'zod';

/** One reason a request did not validate: which field, and why. */
export const FieldError = z.object({
  /** Where the bad value is, e.g. `body.email` or `query.limit`. */
  field: z.string(),
  /** Why it was refused, in words a developer can act on. */
  reason: z.string(),
});
export type FieldError = z.infer<typeof FieldError>;

/** A successful answer of the product API: `{ code: 0, data }`. */
export const okEnvelope = <T extends z.ZodType>(data: T) =>
  z.object({
    /** Always 0 on success. */
    code: z.literal(0),
    /** The answer. */
    data,
  });

/** A failed answer of the product API: `{ code, message, details? }`. */
export const ErrorEnvelope = z.object({
  /** An envelope code from `ErrorCode`, never 0. */
  code: z.number().int(),
  /** What went wrong and, where possible, how to fix it. */
  message: z.string(),
  /** For validation failures: each bad field and the reason. */
  details: z.array(FieldError).optional(),
  /** The id under which the server logged this request. */
  requestId: z.string().optional(),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

/** Either envelope, as a client receives it. */
export type Envelope<T> = { code: 0; data: T } | ErrorEnvelope;
