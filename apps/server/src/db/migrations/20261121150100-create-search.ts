import { type Kysely, sql } from 'kysely';
import { isPostgres, timestampType } from '../migration-helpers.ts';

/**
 * The search index of topics and posts: one row per searchable text. Thai is written without spaces
 * between words, so words cannot be found by tokens: both engines index character trigrams so that
 * any part of a word is found. SQLite: an FTS5 table with the trigram tokenizer over the rows
 * (external content, kept in step by triggers). PostgreSQL: pg_trgm's GIN index for substrings, and
 * a `simple` tsvector for whole-word full-text matches.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db);
  let trgmSchema = 'public';
  if (pg) {
    // The extension belongs to the whole database: install it once, in public (not in the schema of
    // whoever migrates first, which may be dropped), with concurrent migrators taking turns.
    await sql`select pg_advisory_xact_lock(727002)`.execute(db);
    await sql`create extension if not exists pg_trgm with schema public`.execute(db);
    const found = await sql<{ schema: string }>`select extnamespace::regnamespace::text as schema
      from pg_extension where extname = 'pg_trgm'`.execute(db);
    trgmSchema = found.rows[0]?.schema ?? 'public';
  }
  await db.schema
    .createTable('search_documents')
    .addColumn('id', pg ? 'bigserial' : 'integer', (c) =>
      pg ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('kind', 'text', (c) => c.notNull())
    // The topic's or the post's id.
    .addColumn('ref_id', 'text', (c) => c.notNull().unique())
    .addColumn('topic_id', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', timestampType(db), (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('search_documents_topic_index')
    .on('search_documents')
    .column('topic_id')
    .execute();
  if (pg) {
    await sql`alter table search_documents add column tsv tsvector generated always as (to_tsvector('simple', body)) stored`.execute(
      db,
    );
    await sql`create index search_documents_tsv_index on search_documents using gin (tsv)`.execute(db);
    await sql`create index search_documents_trgm_index on search_documents using gin (body ${sql.id(trgmSchema, 'gin_trgm_ops')})`.execute(
      db,
    );
    return;
  }
  await sql`create virtual table search_fts using fts5(body, content='search_documents', content_rowid='id', tokenize='trigram')`.execute(
    db,
  );
  await sql`create trigger search_documents_ai after insert on search_documents begin
    insert into search_fts(rowid, body) values (new.id, new.body); end`.execute(db);
  await sql`create trigger search_documents_ad after delete on search_documents begin
    insert into search_fts(search_fts, rowid, body) values ('delete', old.id, old.body); end`.execute(db);
  await sql`create trigger search_documents_au after update on search_documents begin
    insert into search_fts(search_fts, rowid, body) values ('delete', old.id, old.body);
    insert into search_fts(rowid, body) values (new.id, new.body); end`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) await sql`drop table if exists search_fts`.execute(db);
  await db.schema.dropTable('search_documents').execute();
}
