import { createHash } from 'node:crypto';
import { AppError } from '../http/errors.ts';

/** A stable hash of what a create request asked for, to tell a retry from a reused id. */
export function requestHash(request: unknown): string {
  return createHash('sha256').update(JSON.stringify(request)).digest('base64url');
}

/** Throws 409 when a client-made id comes back with a different request. */
export function sameRequestOrConflict(storedHash: string, hash: string, what: string): void {
  if (storedHash !== hash) {
    throw new AppError(
      'conflict',
      `This clientId was already used for a different ${what}: make a new clientId for a new ${what}.`,
    );
  }
}

/** Whether an error is a unique-key violation (a concurrent create with the same client-made id). */
export function isUniqueViolation(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return code === '23505' || /UNIQUE constraint failed/i.test(error.message);
}

/**
 * Runs an idempotent create; when two requests with the same client-made id race and the second
 * hits the unique key, runs it once more, and then it finds the first one's record.
 */
export async function retryOnUniqueViolation<T>(create: () => Promise<T>): Promise<T> {
  try {
    return await create();
  } catch (error) {
    if (isUniqueViolation(error)) return create();
    throw error;
  }
}
