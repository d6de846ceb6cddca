import { AccessEventName } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import { recordEvent } from '../events/eventLog.ts';

function recordAccessEvent(
  trx: Kysely<Database>,
  type: AccessEventName,
  userId: string,
  reason: string,
  actorId: string | null,
): Promise<unknown> {
  return recordEvent(trx, { room: `user:${userId}`, type, payload: { reason }, actorId });
}

/**
 * Records, in the person's own room, that their rights changed (a role given or taken away), so
 * that their open sockets re-check their rooms at once, as HTTP does on the next request.
 */
export function recordAccessChanged(
  trx: Kysely<Database>,
  userId: string,
  reason: string,
  actorId: string | null,
): Promise<unknown> {
  return recordAccessEvent(trx, AccessEventName.accessChanged, userId, reason, actorId);
}

/** Records that the person was disabled: their sockets close (their sessions are ended by the caller). */
export function recordUserDisabled(
  trx: Kysely<Database>,
  userId: string,
  reason: string,
  actorId: string | null,
): Promise<unknown> {
  return recordAccessEvent(trx, AccessEventName.userDisabled, userId, reason, actorId);
}
