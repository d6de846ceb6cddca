import type { PostRevision } from '@btalk/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { CommentRow, PostRow } from '../db/schema.ts';
import { loadPeople, personFrom } from './person.ts';

/** A stored revision of a post or comment, as both tables hold it. */
interface RevisionRow {
  number: number;
  body: string;
  written_at: string;
  edited_at: string;
  editor_id: string;
}

/**
 * Earlier versions, newest first, from the rows in order. Revision k holds the text edit k
 * replaced; that text was written by the author (k = 1) or by whoever made edit k - 1.
 */
async function presentRevisions(
  db: Kysely<Database>,
  authorId: string,
  rows: RevisionRow[],
): Promise<PostRevision[]> {
  const writers = rows.map((_row, i) => (i === 0 ? authorId : rows[i - 1]!.editor_id));
  const people = await loadPeople(db, writers);
  return rows
    .map((r, i) => ({
      number: Number(r.number),
      body: r.body,
      editor: personFrom(people, writers[i]!),
      writtenAt: r.written_at,
      replacedAt: r.edited_at,
    }))
    .reverse();
}

/** A post's earlier versions, newest first. */
export async function presentPostRevisions(db: Kysely<Database>, post: PostRow): Promise<PostRevision[]> {
  const rows = await db
    .selectFrom('post_revisions')
    .selectAll()
    .where('post_id', '=', post.id)
    .orderBy('number', 'asc')
    .execute();
  return presentRevisions(db, post.author_id, rows);
}

/** A comment's earlier versions, newest first. */
export async function presentCommentRevisions(
  db: Kysely<Database>,
  comment: CommentRow,
): Promise<PostRevision[]> {
  const rows = await db
    .selectFrom('comment_revisions')
    .selectAll()
    .where('comment_id', '=', comment.id)
    .orderBy('number', 'asc')
    .execute();
  return presentRevisions(db, comment.author_id, rows);
}
