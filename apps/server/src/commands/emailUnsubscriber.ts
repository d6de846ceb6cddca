import type { Kysely } from 'kysely';
import { type AuditClient, audit } from '../audit/audit.ts';
import type { Database } from '../db/index.ts';
import type { UserRow } from '../db/schema.ts';
import { now } from '../ids.ts';
import { loadSettings, saveSettings } from '../notifications/settings.ts';

/** How the person asked: the web page's button, or their mail client's one-click (RFC 8058). */
export type UnsubscribeVia = 'web page' | 'one-click';

/**
 * Switches notification e-mail off for the person of an unsubscribe link (the other settings stay
 * as they are) and audits it. Doing it again changes nothing and records nothing.
 */
export async function emailUnsubscriber(
  trx: Kysely<Database>,
  person: UserRow,
  via: UnsubscribeVia,
  client: AuditClient,
): Promise<void> {
  const settings = await loadSettings(trx, person.id);
  if (!settings.channels.email) return;
  await saveSettings(
    trx,
    person.id,
    { ...settings, channels: { ...settings.channels, email: false } },
    now(),
  );
  await audit(trx, {
    actorId: person.id,
    action: 'notifications.email_unsubscribed',
    target: `user:${person.id}`,
    details: { via },
    client,
  });
}
