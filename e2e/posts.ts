import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/**
 * The text of seeded post `n`: chat-like Markdown of a few kinds (plain, bold and a link, a list, a
 * longer paragraph), so that a long topic costs the browser what a real one does.
 */
const BODY_SQL = `case n % 4
  when 0 then ? || ' ' || n || ': the **pumps** in building B are back on, see [the log](https://example.com/log/' || n || ')'
  when 1 then ? || ' ' || n
  when 2 then ? || ' ' || n || char(10) || char(10) || '- checked the generator' || char(10) || '- told the night shift'
  else ? || ' ' || n || ': ' || 'ทุกคนปลอดภัยดี ระบบไฟฟ้ากลับมาใช้งานได้ตามปกติแล้ว ขอบคุณทุกคนที่ช่วยกันตรวจสอบอาคารและรายงานสถานะอย่างรวดเร็ว'
end`;

/**
 * Appends `count` posts by `authorId` to a topic straight into the server's SQLite database, in one
 * statement (a recursive CTE): thousands of posts in a moment, where the API would take minutes.
 * Post `n`'s text starts with `<prefix> <n>`. Writes no events, notifications or search entries:
 * for browser tests and benchmarks of reading long topics.
 */
export function insertPosts(
  dataDir: string,
  topicId: string,
  authorId: string,
  count: number,
  prefix = 'Post',
) {
  const db = new DatabaseSync(path.join(dataDir, 'btalk.sqlite'));
  try {
    // The server writes to the same file at the same time.
    db.exec('PRAGMA busy_timeout = 5000');
    db.exec('BEGIN IMMEDIATE');
    const { post_count: first } = db.prepare('SELECT post_count FROM topics WHERE id = ?').get(topicId) as {
      post_count: number;
    };
    const batch = randomUUID();
    // BigInt: node:sqlite binds a JavaScript number as a real, and the text would read `Post 7.0`.
    const at = new Date().toISOString();
    db.prepare(
      `WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < ?),
         numbered(n) AS (SELECT ? + i FROM seq)
       INSERT INTO posts (id, topic_id, author_id, client_id, request_hash, number, body, comment_count,
         created_at, updated_at)
       SELECT ? || '-' || n, ?, ?, ? || '-' || n, 'seeded', n, ${BODY_SQL}, 0, ?, ? FROM numbered`,
    ).run(
      BigInt(count),
      BigInt(first),
      batch,
      topicId,
      authorId,
      batch,
      prefix,
      prefix,
      prefix,
      prefix,
      at,
      at,
    );
    db.prepare('UPDATE topics SET post_count = ?, last_activity_at = ? WHERE id = ?').run(
      first + count,
      at,
      topicId,
    );
    db.exec('COMMIT');
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  } finally {
    db.close();
  }
}
