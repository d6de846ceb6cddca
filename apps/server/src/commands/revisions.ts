import type { Kysely } from 'kysely';
import { isPostgres } from '../db/engine.ts';
import type { Database } from '../db/index.ts';
import type { UserRow } from '../db/schema.ts';

/**
 * Keeps the text an edit is about to replace as the next revision of a post or comment (its
 * history). The row is read again under a lock on PostgreSQL, so two edits at once keep both texts
 * in order (SQLite has one writer at a time anyway).
 */
export async function keepRevision(
  trx: Kysely<Database>,
  actor: UserRow,
  subject: { kind: 'post' | 'comment'; id: string },
  at: string,
): Promise<void> {
  const table = subject.kind === 'post' ? 'posts' : 'comments';
  let current = trx
    .selectFrom(table)
    .select(['body', 'edited_at', 'created_at'])
    .where('id', '=', subject.id);
  if (isPostgres(trx)) current = current.forUpdate();
  const before = await current.executeTakeFirstOrThrow();
  const version = {
    body: before.body,
    written_at: before.edited_at ?? before.created_at,
    edited_at: at,
    editor_id: actor.id,
  };
  if (subject.kind === 'post') {
    const last = await trx
      .selectFrom('post_revisions')
      .select((eb) => eb.fn.max('number').as('number'))
      .where('post_id', '=', subject.id)
      .executeTakeFirst();
    await trx
      .insertInto('post_revisions')
      .values({ post_id: subject.id, number: Number(last?.number ?? 0) + 1, ...version })
      .execute();
  } else {
    const last = await trx
      .selectFrom('comment_revisions')
      .select((eb) => eb.fn.max('number').as('number'))
      .where('comment_id', '=', subject.id)
      .executeTakeFirst();
    await trx
      .insertInto('comment_revisions')
      .values({ comment_id: subject.id, number: Number(last?.number ?? 0) + 1, ...version })
      .execute();
  }
}
