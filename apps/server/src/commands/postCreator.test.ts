import { type KyselyPlugin, type RootOperationNode, TableNode } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TopicRow, UserRow } from '../db/schema.ts';
import { newId } from '../ids.ts';
import { describeEachDatabase, openTestDatabase, type TestDatabase } from '../test/db.ts';
import { buildUser } from '../test/factories.ts';
import { postCreator } from './postCreator.ts';
import { topicCreator } from './topicCreator.ts';

/** `insert posts`, `update topics`: the writes of a query, by table. */
function writeOf(node: RootOperationNode): string | null {
  const table =
    node.kind === 'InsertQueryNode' ? node.into : node.kind === 'UpdateQueryNode' ? node.table : undefined;
  if (!table || !TableNode.is(table)) return null;
  return `${node.kind === 'InsertQueryNode' ? 'insert' : 'update'} ${table.table.identifier.name}`;
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
        statements.push(writeOf(node) ?? node.kind);
        return node;
      },
      transformResult: async ({ result }) => result,
    };
    const created = await t.db.kysely
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
});
