import type { Kysely } from 'kysely';
import { type AuditClient, audit } from '../audit/audit.ts';
import type { Database } from '../db/index.ts';
import type { UploadSettingsRow, UserRow } from '../db/schema.ts';
import { UPLOAD_SETTINGS_ID } from '../files/refusedTypes.ts';
import { now } from '../ids.ts';

/**
 * Sets the file types uploads refuse (the whole list, cleaned and sorted, each once) for everyone,
 * replacing the configured default, and records who did it in the audit log with the change.
 */
export async function refusedFileTypesSetter(
  trx: Kysely<Database>,
  actor: UserRow,
  extensions: string[],
  before: string[],
  client: AuditClient,
): Promise<UploadSettingsRow> {
  const list = [...new Set(extensions)].sort();
  const row = {
    refused_extensions: JSON.stringify(list),
    updated_by: actor.id,
    updated_at: now(),
  };
  const saved = await trx
    .insertInto('upload_settings')
    .values({ id: UPLOAD_SETTINGS_ID, ...row })
    .onConflict((oc) => oc.column('id').doUpdateSet(row))
    .returningAll()
    .executeTakeFirstOrThrow();
  await audit(trx, {
    actorId: actor.id,
    action: 'uploads.refusedTypesChanged',
    target: `uploads:${UPLOAD_SETTINGS_ID}`,
    details: {
      added: list.filter((e) => !before.includes(e)),
      removed: before.filter((e) => !list.includes(e)),
    },
    client,
  });
  return saved;
}
