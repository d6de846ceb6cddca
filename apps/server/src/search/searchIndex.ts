import type { SearchHighlight, SearchResult } from '@btalk/contracts';
import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../db/engine.ts';
import type { Database } from '../db/index.ts';
import { reusable } from '../db/reusable.ts';
import { type CursorValues, decodeCursor, pageOf } from '../http/cursor.ts';
import { visibleTo } from '../policies/topic.ts';
import { presentPerson } from '../presenters/person.ts';
import { plainTextOf } from './plainText.ts';

/** One text to make findable: a topic (title and description), a post or a comment. */
export interface SearchDocument {
  kind: 'topic' | 'post' | 'comment';
  refId: string;
  topicId: string;
  /** The post itself, or the post of a comment; null for a topic. */
  postId: string | null;
  /** Who wrote it (a topic: who created it). */
  authorId: string;
  /** Whether files are attached; left as it was when not given (an edit does not change files). */
  hasFile?: boolean;
  /** The Markdown: the index keeps the plain text a reader sees (`plainTextOf`). */
  body: string;
  createdAt: string;
}

/** Adds or replaces a document in the index, in the caller's transaction. */
export async function indexDocument(trx: Kysely<Database>, doc: SearchDocument): Promise<void> {
  const { kind, refId, topicId, postId, authorId, createdAt } = doc;
  const body = plainTextOf(doc.body);
  const hasFile = doc.hasFile ? 1 : 0;
  const upsert = doc.hasFile === undefined ? upsertKeepingFile : upsertWithFile;
  await upsert(trx, kind, refId, topicId, postId, authorId, hasFile, body, createdAt);
}

/** Inserts a document, or replaces the text and topic of the one with its id (`sets` says what else). */
function upsertDocument(sets: 'file' | 'not file') {
  return reusable(
    (
      trx: Kysely<Database>,
      kind: SearchDocument['kind'],
      refId: string,
      topicId: string,
      postId: string | null,
      authorId: string,
      hasFile: number,
      body: string,
      createdAt: string,
    ) =>
      trx
        .insertInto('search_documents')
        .values({
          kind,
          ref_id: refId,
          topic_id: topicId,
          post_id: postId,
          author_id: authorId,
          has_file: hasFile,
          body,
          created_at: createdAt,
        })
        .onConflict((oc) =>
          oc
            .column('ref_id')
            .doUpdateSet(
              sets === 'file' ? { body, topic_id: topicId, has_file: hasFile } : { body, topic_id: topicId },
            ),
        ),
  );
}

const upsertWithFile = upsertDocument('file');
/** An edit: the document's files stay as they were. */
const upsertKeepingFile = upsertDocument('not file');

/**
 * Removes a document (a deleted post or comment). A deleted post's comments stay, as they stay in
 * the topic under its placeholder.
 */
export async function removeDocument(trx: Kysely<Database>, refId: string): Promise<void> {
  await trx.deleteFrom('search_documents').where('ref_id', '=', refId).execute();
}

/**
 * Punctuation that wraps or follows a word in prose (quotes, brackets, `:`, `,`, `.`, `!`, `?`,
 * emphasis marks, dashes), dropped from a word's ends: `"budget"`, `(draft)`, `re:` find the word.
 * Inside a word punctuation is kept and matched as written (`c:\temp`, `100%_off`, `a.b@c.d`), and
 * `%`, `_`, `\`, `#` and `@` are kept at the ends too (`100%`, `#42`, `@Name`).
 */
const WRAPPING = /^["'“”‘’«»`()[\]{}<>:;,.!?*~–—-]+|["'“”‘’«»`()[\]{}<>:;,.!?*~–—-]+$/gu;

/**
 * The words of a query; each must occur in a hit, as any part of a word (Thai has no spaces).
 * Words split at spaces and colons (`re:budget`, `a:b`: a colon is query syntax in most search
 * boxes, and text that holds `a:b` also holds `a` and `b`); a word that is punctuation only is
 * searched as written. Lower case, without repeats, at most 8.
 */
export function searchTerms(q: string): string[] {
  const words = q
    .toLowerCase()
    .split(/[\s:]+/)
    .filter(Boolean)
    .map((word) => word.replace(WRAPPING, '') || word);
  return [...new Set(words)].slice(0, 8);
}

function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * A term as LIKE is given it: `%term%`, and whether it needs an ESCAPE clause. On SQLite the
 * FTS5 trigram table answers LIKE from its index only without an ESCAPE clause (with one it reads
 * every document), so a term without `%` or `_` is matched as is (a backslash is then an ordinary
 * character, as it was when escaped). PostgreSQL's pg_trgm index serves ILIKE with ESCAPE alike.
 */
function termPattern(term: string, postgres: boolean): { pattern: string; escaped: boolean } {
  return postgres || /[%_]/.test(term)
    ? { pattern: likePattern(term), escaped: true }
    : { pattern: `%${term}%`, escaped: false };
}

/**
 * SQLite: `f.body LIKE '%term%'` on the FTS5 trigram table for each term, the ids of the documents
 * holding every one. The terms are bound parameters of LIKE, never text for MATCH: FTS5's query
 * syntax (`:`, `"`, `*`, `^`, `(`, AND/OR/NOT) means nothing here.
 */
function sqliteMatchesOf(patterns: string[], escaped: boolean[]) {
  const likes = patterns.map((pattern, i) =>
    escaped[i] ? sql<boolean>`f.body like ${pattern} escape '\\'` : sql<boolean>`f.body like ${pattern}`,
  );
  return sql<{ rowid: number }>`select f.rowid from search_fts f where ${sql.join(likes, sql` and `)}`;
}

/** SQLite: the ids of the documents holding every term, read from the FTS5 trigram index. */
export function sqliteMatches(terms: string[]) {
  const patterns = terms.map((term) => termPattern(term, false));
  return sqliteMatchesOf(
    patterns.map((p) => p.pattern),
    patterns.map((p) => p.escaped),
  );
}

/** How many characters a snippet has at most, and how many of them come before the first match. */
const SNIPPET_LENGTH = 200;
const SNIPPET_LEAD = 60;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Moves a cut off a combining mark (a Thai vowel or tone mark) and the low half of a surrogate pair. */
function cutAt(text: string, at: number): number {
  let i = Math.max(0, Math.min(at, text.length));
  while (i > 0 && i < text.length && /[\p{M}\udc00-\udfff]/u.test(text[i]!)) i--;
  return i;
}

/**
 * Where the terms occur in a text: ranges in order, overlapping ones merged. A one-character term
 * (the `a` of `a:b`) is marked only where it stands alone, not in every word that holds the letter.
 */
export function matchRanges(text: string, terms: string[]): SearchHighlight[] {
  const found: SearchHighlight[] = [];
  for (const term of terms) {
    const pattern =
      [...term].length === 1
        ? `(?<![\\p{L}\\p{M}\\p{N}])${escapeRegExp(term)}(?![\\p{L}\\p{M}\\p{N}])`
        : escapeRegExp(term);
    for (const m of text.matchAll(new RegExp(pattern, 'giu'))) {
      if (m[0].length > 0) found.push({ start: m.index, end: m.index + m[0].length });
    }
  }
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: SearchHighlight[] = [];
  for (const r of found) {
    const last = merged[merged.length - 1];
    if (last && r.start <= last.end) last.end = Math.max(last.end, r.end);
    else merged.push({ ...r });
  }
  return merged;
}

/**
 * Up to 200 characters of the plain text around the first match (60 before it), `…` where text
 * was cut (never inside a Thai syllable's marks), and where the terms are in it.
 */
export function snippetOf(body: string, terms: string[]): { snippet: string; highlights: SearchHighlight[] } {
  const first = matchRanges(body, terms)[0]?.start ?? 0;
  let start = cutAt(body, first - SNIPPET_LEAD);
  // Start at a word (English); Thai has no spaces to find, and the cut stays where it was.
  const space = start > 0 ? body.indexOf(' ', start - 1) : -1;
  if (space >= 0 && space < first) start = space + 1;
  const end = cutAt(body, start + SNIPPET_LENGTH);
  const snippet = `${start > 0 ? '…' : ''}${body.slice(start, end).trim()}${end < body.length ? '…' : ''}`;
  return { snippet, highlights: matchRanges(snippet, terms) };
}

/** What a search is narrowed to, as checked by the route. */
export interface SearchFilters {
  topicId?: string;
  authorId?: string;
  hasFile?: boolean;
  kind?: SearchResult['kind'];
  /** Written at or after this instant (ISO, as stored). */
  from?: string;
  /** Written at or before this instant (ISO, as stored). */
  to?: string;
}

/** The documents of `searchVisible`, newest first: every argument left undefined is no condition. */
const searchRows = reusable(
  (
    db: Kysely<Database>,
    viewerId: string,
    patterns: string[],
    escaped: boolean[],
    topicId: string | undefined,
    authorId: string | undefined,
    hasFile: number | undefined,
    kind: SearchDocument['kind'] | undefined,
    from: string | undefined,
    to: string | undefined,
    afterAt: string | undefined,
    afterId: number | undefined,
    limit: number,
  ) => {
    let query = db
      .selectFrom('search_documents as d')
      .innerJoin('topics', 'topics.id', 'd.topic_id')
      .leftJoin('posts as p', 'p.id', 'd.post_id')
      // The author in the same query: a page of hits is one round trip.
      .leftJoin('users as u', 'u.id', 'd.author_id')
      .select([
        'd.id',
        'd.kind',
        'd.ref_id',
        'd.topic_id',
        'd.post_id',
        'd.author_id',
        'd.has_file',
        'd.body',
        'd.created_at',
        'topics.title',
        'topics.archived_at',
        'p.number',
        'u.display_name as author_name',
        'u.email as author_email',
        'u.department as author_department',
      ])
      .where(visibleTo(viewerId));
    if (patterns.length > 0) {
      if (isPostgres(db)) {
        const likes = patterns.map((pattern) => sql<boolean>`d.body ilike ${pattern} escape '\\'`);
        query = query.where(sql<boolean>`(${sql.join(likes, sql` and `)})`);
      } else {
        query = query.where(sql<boolean>`d.id in (${sqliteMatchesOf(patterns, escaped)})`);
      }
    }
    if (topicId !== undefined) query = query.where('d.topic_id', '=', topicId);
    if (authorId !== undefined) query = query.where('d.author_id', '=', authorId);
    if (hasFile !== undefined) query = query.where('d.has_file', '=', hasFile);
    if (kind !== undefined) query = query.where('d.kind', '=', kind);
    if (from !== undefined) query = query.where('d.created_at', '>=', from);
    if (to !== undefined) query = query.where('d.created_at', '<=', to);
    if (afterAt !== undefined && afterId !== undefined) {
      query = query.where((eb) =>
        eb.or([
          eb('d.created_at', '<', afterAt),
          eb.and([eb('d.created_at', '=', afterAt), eb('d.id', '<', afterId)]),
        ]),
      );
    }
    return query.orderBy('d.created_at', 'desc').orderBy('d.id', 'desc').limit(limit);
  },
);

/**
 * Topics, posts and comments holding every word of `q` (none: everything the filters allow), in
 * topics the viewer may see, newest first. SQLite: LIKE on the FTS5 trigram table (FTS5 answers it
 * from the trigram index). PostgreSQL: ILIKE on every word, served by the pg_trgm index. The
 * filters are conditions of the same query on both.
 */
export async function searchVisible(
  db: Kysely<Database>,
  viewerId: string,
  q: string,
  filters: SearchFilters,
  cursor: string | undefined,
  limit: number,
) {
  const terms = searchTerms(q);
  const after = decodeCursor<[string, number]>(cursor, ['timestamp', 'number']);
  const patterns = terms.map((term) => termPattern(term, isPostgres(db)));
  const { topicId, authorId, hasFile, kind, from, to } = filters;
  const rows = await searchRows(
    db,
    viewerId,
    patterns.map((p) => p.pattern),
    patterns.map((p) => p.escaped),
    topicId,
    authorId,
    hasFile === undefined ? undefined : hasFile ? 1 : 0,
    kind,
    from,
    to,
    after?.[0],
    after?.[1],
    limit + 1,
  );
  return pageOf(
    rows,
    limit,
    (r): CursorValues => [r.created_at, Number(r.id)],
    (kept): SearchResult[] =>
      kept.map((r) => ({
        kind: r.kind,
        topicId: r.topic_id,
        topicTitle: r.title,
        topicArchived: r.archived_at !== null,
        postId: r.post_id,
        postNumber: r.post_id !== null && r.number !== null ? Number(r.number) : null,
        commentId: r.kind === 'comment' ? r.ref_id : null,
        author:
          r.author_id && r.author_name !== null
            ? presentPerson({
                id: r.author_id,
                display_name: r.author_name,
                email: r.author_email ?? '',
                department: r.author_department,
              })
            : null,
        hasFile: Number(r.has_file) === 1,
        ...snippetOf(r.body, terms),
        createdAt: r.created_at,
      })),
  );
}
