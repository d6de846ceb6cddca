import { z } from 'zod';
import { FieldError } from './errors.ts';

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
