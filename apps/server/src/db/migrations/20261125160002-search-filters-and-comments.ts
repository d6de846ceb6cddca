import { type Kysely, sql } from 'kysely';
import { plainTextOf } from '../../search/plainText.ts';

/** How many documents one pass of the plain-text rewrite reads. */
const BATCH = 500;

/**
 * Search that finds and lands (issue 15): the index gains what its filters need (the post, the
 * author, whether files are attached), comments, and posts with files but no text; and it keeps the
 * plain text a reader sees rather than the Markdown, so that a snippet shows no marks, link targets
 * or mention ids and a word never matches inside them. Existing documents are filled in and
 * rewritten here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('search_documents').addColumn('post_id', 'text').execute();
  await db.schema.alterTable('search_documents').addColumn('author_id', 'text').execute();
  await db.schema
    .alterTable('search_documents')
    .addColumn('has_file', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  // Posts without a document (files only, or written before they had one) and live comments; their
  // text is made plain below with every other document's.
  await sql`insert into search_documents (kind, ref_id, topic_id, body, created_at)
    select 'post', p.id, p.topic_id, p.body, p.created_at from posts p
    where p.deleted_at is null and not exists (select 1 from search_documents d where d.ref_id = p.id)`.execute(
    db,
  );
  await sql`insert into search_documents (kind, ref_id, topic_id, body, created_at)
    select 'comment', c.id, c.topic_id, c.body, c.created_at from comments c
    where c.deleted_at is null and c.body <> ''
      and not exists (select 1 from search_documents d where d.ref_id = c.id)`.execute(db);
  await sql`update search_documents set post_id = ref_id,
      author_id = (select p.author_id from posts p where p.id = search_documents.ref_id),
      has_file = case when exists (select 1 from attachments a where a.post_id = search_documents.ref_id)
        then 1 else 0 end
    where kind = 'post'`.execute(db);
  await sql`update search_documents set
      post_id = (select c.post_id from comments c where c.id = search_documents.ref_id),
      author_id = (select c.author_id from comments c where c.id = search_documents.ref_id)
    where kind = 'comment'`.execute(db);
  await sql`update search_documents set
      author_id = (select t.creator_id from topics t where t.id = search_documents.ref_id)
    where kind = 'topic'`.execute(db);

  await db.schema
    .createIndex('search_documents_author_index')
    .on('search_documents')
    .columns(['author_id', 'created_at'])
    .execute();
  // Newest first without words (filters only): the order of the list, from an index.
  await db.schema
    .createIndex('search_documents_created_index')
    .on('search_documents')
    .columns(['created_at', 'id'])
    .execute();

  let after = 0;
  for (;;) {
    const { rows } = await sql<{ id: number | string; markdown: string | null }>`
      select d.id, case d.kind
        when 'post' then (select p.body from posts p where p.id = d.ref_id)
        when 'comment' then (select c.body from comments c where c.id = d.ref_id)
        else (select t.title || ${sql.lit('\n')} || t.description from topics t where t.id = d.ref_id) end as markdown
      from search_documents d where d.id > ${after} order by d.id limit ${BATCH}`.execute(db);
    for (const row of rows) {
      const body = plainTextOf(row.markdown ?? '');
      await sql`update search_documents set body = ${body} where id = ${row.id} and body <> ${body}`.execute(
        db,
      );
    }
    if (rows.length < BATCH) break;
    after = Number(rows[rows.length - 1]!.id);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('search_documents_created_index').execute();
  await db.schema.dropIndex('search_documents_author_index').execute();
  await sql`delete from search_documents where kind = 'comment'`.execute(db);
  await db.schema.alterTable('search_documents').dropColumn('has_file').execute();
  await db.schema.alterTable('search_documents').dropColumn('author_id').execute();
  await db.schema.alterTable('search_documents').dropColumn('post_id').execute();
}
