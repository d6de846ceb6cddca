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

  it("takes the topic's counter (a row lock until commit on PostgreSQL) after the post's other writes", async () => {
    const topic = await newTopic();
    const writes: string[] = [];
    const recorder: KyselyPlugin = {
      transformQuery({ node }) {
        const write = writeOf(node);
        if (write) writes.push(write);
        return node;
      },
      transformResult: async ({ result }) => result,
    };
    await t.db.kysely
      .withPlugin(recorder)
      .transaction()
      .execute((trx) =>
        postCreator(
          trx,
          author,
          topic,
          { clientId: newId(), body: 'hello', mentions: [], attachmentIds: [] },
          10,
        ),
      );
    const counter = writes.indexOf('update topics');
    expect(writes.slice(0, counter)).toEqual(
      expect.arrayContaining(['insert posts', 'insert post_bells', 'insert search_documents']),
    );
    // After it: the post's number, its notifications and its event.
    expect(writes[counter + 1]).toBe('update posts');
    expect(writes.at(-1)).toBe('insert events');
  });
});
