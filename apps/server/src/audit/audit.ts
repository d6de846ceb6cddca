import type { ClientKind } from '@btalk/contracts';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { AuditLogRow } from '../db/schema.ts';
import { newId, now } from '../ids.ts';

/** Longest user agent kept; longer ones are cut (they are for people reading the log, not parsing). */
const USER_AGENT_MAX = 512;

/** The client a request came from, as the audit log records it. */
export interface AuditClient {
  /** What the request said it is: the web app or the Teams tab. */
  kind: ClientKind;
  /** The request's User-Agent header, if it sent one. */
  userAgent: string | null;
}

/** One thing worth auditing: who did what to which thing, and from where. */
export interface AuditEntry {
  /** Who did it; null when BTalk itself did. */
  actorId: string | null;
  /** `<entity>.<verb>` in the past tense, e.g. `terms.accepted`, `calltree.edited`. */
  action: string;
  /** `<entity>:<id>`, e.g. `terms:2`, `calltree:<id>`. */
  target: string;
  /** Further facts a reader of the log needs (stored as JSON). */
  details?: Record<string, unknown>;
  /** The client of the request that caused it; null when no request did. */
  client: AuditClient | null;
}

/** The audit client of a request, with the client kind its body or query stated. */
export function requestClient(request: FastifyRequest, kind: ClientKind): AuditClient {
  const agent = request.headers['user-agent'];
  return { kind, userAgent: typeof agent === 'string' && agent ? agent.slice(0, USER_AGENT_MAX) : null };
}

/**
 * Appends an entry to the audit log in the caller's transaction, so that the entry exists if and
 * only if the change it describes was committed.
 */
export async function audit(trx: Kysely<Database>, entry: AuditEntry): Promise<AuditLogRow> {
  return trx
    .insertInto('audit_log')
    .values({
      id: newId(),
      actor_id: entry.actorId,
      action: entry.action,
      target: entry.target,
      details: JSON.stringify(entry.details ?? {}),
      client_kind: entry.client?.kind ?? null,
      user_agent: entry.client?.userAgent ?? null,
      created_at: now(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}
