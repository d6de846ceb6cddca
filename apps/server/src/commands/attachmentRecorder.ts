import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { AttachmentRow } from '../db/schema.ts';

/** Records uploaded files (already in the file storage) as waiting for the uploader's post. */
export async function attachmentRecorder(
  trx: Kysely<Database>,
  rows: AttachmentRow[],
): Promise<AttachmentRow[]> {
  if (rows.length === 0) return [];
  await trx.insertInto('attachments').values(rows).execute();
  return rows;
}
