import {
  InsertQueryNode,
  type KyselyPlugin,
  type OperationNode,
  type RootOperationNode,
  TableNode,
  UpdateQueryNode,
} from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TopicRow, UserRow } from '../db/schema.ts';
import { newId } from '../ids.ts';
import { presentPostBases } from '../presenters/post.ts';
import { describeEachDatabase, openTestDatabase, type TestDatabase } from '../test/db.ts';
import { buildUser } from '../test/factories.ts';
import { postCreator } from './postCreator.ts';
import { topicCreator } from './topicCreator.ts';

/** `insert posts`, `update topics`: the write of a query, by table. */
function writeOf(node: OperationNode): string | null {
  const table = InsertQueryNode.is(node) ? node.into : UpdateQueryNode.is(node) ? node.table : undefined;
  if (!table || !TableNode.is(table)) return null;
  return `${InsertQueryNode.is(node) ? 'insert' : 'update'} ${table.table.identifier.name}`;
}

/** The writes of a statement, in the order they run: those of its `with` clauses, then its own. */
function writesOf(node: RootOperationNode): string[] {
  const inner = 'with' in node && node.with ? node.with.expressions.map((cte) => cte.expression) : [];
  return [...inner, node].map((n) => writeOf(n) ?? n.kind);
}

describeEachDatabase('postCreator', (kind) => {
  let t: TestDatabase;
  let author: UserRow;
  beforeAll(async () => {
    t = await openTestDatabase(kind);
    author = await buildUser(t.db.kysely);
  });
  afterAll(() => t.cleanup());

  async function newTopic(): Promise<TopicRow> {
    const id = await t.db.kysely.transaction().execute((trx) =>
      topicCreator(trx, author, {
        title: 'Numbers',
        description: '',
        visibility: 'organisation',
        memberIds: [],
      }),
    );
    return t.db.kysely.selectFrom('topics').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  function post(topic: TopicRow, body: string) {
    return t.db.kysely
      .transaction()
      .execute((trx) =>
        postCreator(trx, author, topic, { clientId: newId(), body, mentions: [], attachmentIds: [] }, 10),
      );
  }

  it('numbers concurrent posts to one topic 1 to n, each once', async () => {
    const topic = await newTopic();
    await Promise.all(Array.from({ length: 20 }, (_, i) => post(topic, `post ${i}`)));
    const rows = await t.db.kysely
      .selectFrom('posts')
      .select('number')
      .where('topic_id', '=', topic.id)
      .orderBy('number')
      .execute();
    expect(rows.map((r) => Number(r.number))).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const { post_count } = await t.db.kysely
      .selectFrom('topics')
      .select('post_count')
      .where('id', '=', topic.id)
      .executeTakeFirstOrThrow();
    expect(Number(post_count)).toBe(20);
  });

  it("takes the topic's counter and the event log's lock as the transaction's last statements", async () => {
    const topic = await newTopic();
    const reader = await buildUser(t.db.kysely);
    const statements: string[] = [];
    const recorder: KyselyPlugin = {
      transformQuery({ node }) {
        statements.push(...writesOf(node));
        return node;
      },
      transformResult: async ({ result }) => result,
    };
    const { post: created } = await t.db.kysely
      .withPlugin(recorder)
      .transaction()
      .execute((trx) =>
        postCreator(
          trx,
          author,
          topic,
          {
            clientId: newId(),
            body: `hello @[${reader.display_name}](user:${reader.id})`,
            mentions: [reader.id],
            attachmentIds: [],
          },
          10,
        ),
      );
    const counter = statements.indexOf('update topics');
    expect(statements.slice(0, counter)).toEqual(
      expect.arrayContaining(['insert posts', 'insert post_bells', 'insert search_documents']),
    );
    // After it only writes: the post's number, the notifications that carry it, then every event of
    // the post in one insert (on PostgreSQL behind the event log's lock, a raw statement).
    const after = statements.slice(counter + 1).filter((s) => s !== 'RawNode');
    expect(after).toEqual(['update posts', 'insert notifications', 'insert events']);

    const notice = await t.db.kysely
      .selectFrom('notifications')
      .select('data')
      .where('post_id', '=', created.id)
      .where('user_id', '=', reader.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(notice.data).postNumber).toBe(Number(created.number));
    const events = await t.db.kysely
      .selectFrom('events')
      .select(['type', 'payload'])
      .where('type', 'in', ['post.created', 'notification.created'])
      .orderBy('seq')
      .execute();
    const posted = events.filter((e) => e.type === 'post.created').map((e) => JSON.parse(e.payload).post);
    expect(posted.at(-1)).toMatchObject({ id: created.id, number: Number(created.number) });
    expect(Number(created.number)).toBeGreaterThan(0);
    // The bell's event comes before the post's, as when the notifications recorded their own.
    expect(events.at(-2)?.type).toBe('notification.created');
  });

  it('shows a new post in its event and answer exactly as a read of it afterwards does', async () => {
    const topic = await newTopic();
    const [zed, amy] = [
      await buildUser(t.db.kysely, { display_name: 'Zed' }),
      await buildUser(t.db.kysely, { display_name: 'Amy' }),
    ];
    const files = [1, 0].map((n) => ({
      id: newId(),
      topic_id: topic.id,
      post_id: null,
      uploader_id: author.id,
      storage_key: `key-${newId()}`,
      file_name: `plan ${n}.pdf`,
      content_type: 'application/pdf',
      size_bytes: 1000 + n,
      kind: 'file' as const,
      created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
    }));
    await t.db.kysely.insertInto('attachments').values(files).execute();
    const created = await t.db.kysely.transaction().execute((trx) =>
      postCreator(
        trx,
        author,
        topic,
        {
          clientId: newId(),
          body: `for @[Zed](user:${zed!.id}) and @[Amy](user:${amy!.id})`,
          mentions: [amy!.id],
          attachmentIds: files.map((f) => f.id),
        },
        10,
      ),
    );
    const row = await t.db.kysely
      .selectFrom('posts')
      .selectAll()
      .where('id', '=', created.post.id)
      .executeTakeFirstOrThrow();
    const [read] = await presentPostBases(t.db.kysely, [row]);
    expect(created.base).toEqual(read);
    expect(read!.mentions.map((m) => m.displayName).sort()).toEqual(['Amy', 'Zed']);
    expect(read!.attachments.map((a) => a.fileName)).toEqual(['plan 0.pdf', 'plan 1.pdf']);
    const event = await t.db.kysely
      .selectFrom('events')
      .select('payload')
      .where('type', '=', 'post.created')
      .orderBy('seq', 'desc')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(event.payload).post).toEqual(read);

    // The same client-made id again: the first post, read as any post is.
    const again = await t.db.kysely.transaction().execute((trx) =>
      postCreator(
        trx,
        author,
        topic,
        {
          clientId: row.client_id,
          body: `for @[Zed](user:${zed!.id}) and @[Amy](user:${amy!.id})`,
          mentions: [amy!.id],
          attachmentIds: files.map((f) => f.id),
        },
        10,
      ),
    );
    expect(again).toEqual({ post: row, base: null });
  });
});
