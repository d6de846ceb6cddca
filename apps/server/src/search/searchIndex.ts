import type { SearchResult } from '@btalk/contracts';
import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../db/engine.ts';
import type { Database } from '../db/index.ts';
import { type CursorValues, decodeCursor, pageOf } from '../http/cursor.ts';
import { visibleTo } from '../policies/topic.ts';

/** One text to make findable: a topic (title and description) or a post. */
export interface SearchDocument {
  kind: 'topic' | 'post';
  refId: string;
  topicId: string;
  body: string;
  createdAt: string;
}

/** Adds or replaces a document in the index, in the caller's transaction. */
export async function indexDocument(trx: Kysely<Database>, doc: SearchDocument): Promise<void> {
  await trx
    .insertInto('search_documents')
    .values({
      kind: doc.kind,
      ref_id: doc.refId,
      topic_id: doc.topicId,
      body: doc.body,
      created_at: doc.createdAt,
    })
    .onConflict((oc) => oc.column('ref_id').doUpdateSet({ body: doc.body, topic_id: doc.topicId }))
    .execute();
}

/** Removes a document (a deleted post) from the index. */
export async function removeDocument(trx: Kysely<Database>, refId: string): Promise<void> {
  await trx.deleteFrom('search_documents').where('ref_id', '=', refId).execute();
}

/** The words of a query; each must occur in a hit, as any part of a word (Thai has no spaces). */
export function searchTerms(q: string): string[] {
  return [...new Set(q.toLowerCase().split(/\s+/).filter(Boolean))].slice(0, 8);
}

function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * `f.body LIKE '%term%'` on the FTS5 trigram table. FTS5 answers LIKE from its trigram index only
 * without an ESCAPE clause (with one it reads every document), so a term without `%` or `_` is
 * matched as is (a backslash is then an ordinary character, as it was when escaped).
 */
function ftsLike(term: string) {
  return /[%_]/.test(term)
    ? sql<boolean>`f.body like ${likePattern(term)} escape '\\'`
    : sql<boolean>`f.body like ${`%${term}%`}`;
}

/** SQLite: the ids of the documents holding every term, read from the FTS5 trigram index. */
export function sqliteMatches(terms: string[]) {
  return sql<{
    rowid: number;
  }>`select f.rowid from search_fts f where ${sql.join(terms.map(ftsLike), sql` and `)}`;
}

/** Up to 200 characters around the first term found. */
export function snippetOf(body: string, terms: string[]): string {
  const lower = body.toLowerCase();
  const at = Math.max(0, Math.min(...terms.map((t) => lower.indexOf(t)).filter((i) => i >= 0), body.length));
  const start = Math.max(0, at - 60);
  const text = body
    .slice(start, start + 200)
    .replace(/\s+/g, ' ')
    .trim();
  return `${start > 0 ? '…' : ''}${text}${start + 200 < body.length ? '…' : ''}`;
}

/**
 * Topics and posts containing every word of `q`, in topics the viewer may see, newest first.
 * SQLite: LIKE on the FTS5 trigram table (FTS5 answers it from the trigram index). PostgreSQL: a
 * `simple` full-text match or ILIKE on every word (served by the pg_trgm index).
 */
export async function searchVisible(
  db: Kysely<Database>,
  viewerId: string,
  q: string,
  cursor: string | undefined,
  limit: number,
) {
  const terms = searchTerms(q);
  const after = decodeCursor<[string, number]>(cursor, ['timestamp', 'number']);
  let query = db
    .selectFrom('search_documents as d')
    .innerJoin('topics', 'topics.id', 'd.topic_id')
    .leftJoin('posts as p', 'p.id', 'd.ref_id')
    .select([
      'd.id',
      'd.kind',
      'd.ref_id',
      'd.topic_id',
      'd.body',
      'd.created_at',
      'topics.title',
      'p.number',
    ])
    .where(visibleTo(viewerId));
  if (isPostgres(db)) {
    const likes = terms.map((t) => sql<boolean>`d.body ilike ${likePattern(t)} escape '\\'`);
    query = query.where(
      sql<boolean>`(d.tsv @@ plainto_tsquery('simple', ${q}) or (${sql.join(likes, sql` and `)}))`,
    );
  } else {
    query = query.where(sql<boolean>`d.id in (${sqliteMatches(terms)})`);
  }
  if (after) {
    const [at, id] = after;
    query = query.where((eb) =>
      eb.or([eb('d.created_at', '<', at), eb.and([eb('d.created_at', '=', at), eb('d.id', '<', id)])]),
    );
  }
  const rows = await query
    .orderBy('d.created_at', 'desc')
    .orderBy('d.id', 'desc')
    .limit(limit + 1)
    .execute();
  return pageOf(
    rows,
    limit,
    (r): CursorValues => [r.created_at, Number(r.id)],
    (kept): SearchResult[] =>
      kept.map((r) => ({
        kind: r.kind,
        topicId: r.topic_id,
        topicTitle: r.title,
        postId: r.kind === 'post' ? r.ref_id : null,
        postNumber: r.kind === 'post' && r.number !== null ? Number(r.number) : null,
        snippet: snippetOf(r.body, terms),
        createdAt: r.created_at,
      })),
  );
}
