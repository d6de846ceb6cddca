import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';

/**
 * Removes up to `limit` uploads that no post took in and that were uploaded before `before` (ISO
 * time), oldest first. The delete is conditional (still not in a post), so an upload that a post
 * takes in meanwhile stays, and two instances removing at once remove each row once. Answers the
 * storage keys of the rows it removed, to delete from the file storage once the transaction has
 * committed.
 */
export async function unpostedAttachmentRemover(
  trx: Kysely<Database>,
  before: string,
  limit: number,
): Promise<string[]> {
  const stale = await trx
    .selectFrom('attachments')
    .select('id')
    .where('post_id', 'is', null)
    .where('created_at', '<', before)
    .orderBy('created_at')
    .limit(limit)
    .execute();
  if (stale.length === 0) return [];
  const removed = await trx
    .deleteFrom('attachments')
    .where(
      'id',
      'in',
      stale.map((r) => r.id),
    )
    .where('post_id', 'is', null)
    .returning('storage_key')
    .execute();
  return removed.map((r) => r.storage_key);
}
