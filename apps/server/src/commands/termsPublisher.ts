import { SystemEventName, type TermsTextInput } from '@btalk/contracts';
import { type Kysely, sql } from 'kysely';
import { type AuditClient, audit } from '../audit/audit.ts';
import { isPostgres } from '../db/engine.ts';
import type { Database } from '../db/index.ts';
import type { TermsVersionRow, UserRow } from '../db/schema.ts';
import { recordEvent } from '../events/eventLog.ts';
import { now } from '../ids.ts';

/** What publishing a terms version takes. */
export interface TermsPublication {
  /** The administrator publishing (the route has authorized them). */
  actor: UserRow;
  th: TermsTextInput;
  en: TermsTextInput;
  client: AuditClient;
}

/** Arbitrary constant key of the PostgreSQL advisory lock that orders publications. */
const PUBLISH_LOCK_KEY = 727_002;

/**
 * Publishes the next terms version (the current one plus one) and records it in the audit log.
 * From then on everyone, the publisher included, must accept the new version. The caller tells the
 * gate's cache after the commit (`ctx.terms.published`).
 */
export async function termsPublisher(
  trx: Kysely<Database>,
  input: TermsPublication,
): Promise<TermsVersionRow> {
  // Two administrators publishing at once get versions n+1 and n+2, not a duplicate key.
  // (SQLite runs one write transaction at a time already.)
  if (isPostgres(trx)) await sql`select pg_advisory_xact_lock(${PUBLISH_LOCK_KEY})`.execute(trx);
  const latest = await trx
    .selectFrom('terms_versions')
    .select((eb) => eb.fn.max('version').as('version'))
    .executeTakeFirst();
  const version = Number(latest?.version ?? 0) + 1;
  const row = await trx
    .insertInto('terms_versions')
    .values({
      version,
      title_th: input.th.title,
      body_th: input.th.body,
      title_en: input.en.title,
      body_en: input.en.body,
      published_at: now(),
      published_by: input.actor.id,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await audit(trx, {
    actorId: input.actor.id,
    action: 'terms.published',
    target: `terms:${version}`,
    details: { version, titles: { th: input.th.title, en: input.en.title } },
    client: input.client,
  });
  // Open sockets check their person again at once: those who have not accepted it close (4404).
  await recordEvent(trx, {
    room: 'system:terms',
    type: SystemEventName.termsPublished,
    payload: { version },
    actorId: input.actor.id,
  });
  return row;
}
