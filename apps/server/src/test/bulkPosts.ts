import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/index.ts';
import { isPostgres, timestampType } from '../db/migration-helpers.ts';
import { newId } from '../ids.ts';

/**
 * Appends `count` posts by `authorId` to a topic in one SQL statement (a recursive CTE, on SQLite and
 * PostgreSQL alike), numbered on from the topic's post count, with the text `<prefix> <number>`. For
 * tests and benchmarks of long topics: 100,000 posts through the API would take minutes, and the
 * paging under test only reads the rows. No events, notifications or search entries are written.
 */
export async function insertPosts(
  db: Kysely<Database>,
  topicId: string,
  authorId: string,
  count: number,
  prefix = 'Post',
): Promise<void> {
  const batch = newId();
  const at = new Date().toISOString();
  // PostgreSQL does not guess the type of a parameter in a SELECT list: say it is a timestamp.
  const time = isPostgres(db as Kysely<unknown>)
    ? sql`cast(${at} as ${timestampType(db as Kysely<unknown>)})`
    : sql`${at}`;
  await db.transaction().execute(async (trx) => {
    const { post_count: first } = await trx
      .selectFrom('topics')
      .select('post_count')
      .where('id', '=', topicId)
      .executeTakeFirstOrThrow();
    // A literal, not a parameter: SQLite would bind a JavaScript number as a real (`Post 7.0`).
    const offset = sql.lit(Number(first));
    await sql`
      with recursive seq(i) as (select 1 union all select i + 1 from seq where i < ${sql.lit(count)})
      insert into posts (id, topic_id, author_id, client_id, request_hash, number, body, comment_count,
        created_at, updated_at)
      select ${batch} || '-' || i, ${topicId}, ${authorId}, ${batch} || '-' || i, 'bulk', ${offset} + i,
        ${`${prefix} `} || (${offset} + i), 0, ${time}, ${time}
      from seq`.execute(trx);
    await trx
      .updateTable('topics')
      .set({ post_count: Number(first) + count, last_activity_at: at })
      .where('id', '=', topicId)
      .execute();
  });
}
