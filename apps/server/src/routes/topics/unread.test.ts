import { expect, it } from 'vitest';
import { selectTopics } from '../../presenters/topic.ts';
import { describeEachDatabase } from '../../test/db.ts';
import { useTestServer } from '../../test/server.ts';
import { type SignedIn, signedIn } from '../../test/session.ts';
import { as, buildPost, buildTopic, dataOf } from '../../test/topics.ts';

describeEachDatabase('unread counts', (kind) => {
  const server = useTestServer(kind);

  /** The definition, counted row by row: posts by others after the person's marker, not deleted. */
  async function countedUnread(topicId: string, who: SignedIn): Promise<number> {
    const db = server.ctx.db.kysely;
    const marker = await db
      .selectFrom('read_states')
      .select('last_read_number')
      .where('topic_id', '=', topicId)
      .where('user_id', '=', who.user.id)
      .executeTakeFirst();
    const row = await db
      .selectFrom('posts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('topic_id', '=', topicId)
      .where('author_id', '!=', who.user.id)
      .where('deleted_at', 'is', null)
      .where('number', '>', Number(marker?.last_read_number ?? 0))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  it('counts the posts of others after the marker, without the deleted ones, in many posts', async () => {
    const alice = await signedIn(server);
    const bob = await signedIn(server);
    const carol = await signedIn(server);
    const t = await buildTopic(server, alice);
    const posts: { id: string; by: SignedIn }[] = [];
    for (let i = 0; i < 120; i++) {
      const by = i % 7 === 0 ? bob : i % 5 === 0 ? carol : alice;
      posts.push({ id: (await buildPost(server, by, t.id, `post ${i}`)).id, by });
    }
    // Deleted: others' posts and Bob's own, before and after his marker.
    for (const i of [3, 14, 40, 63, 70, 71, 98, 112, 119]) {
      const { id, by } = posts[i]!;
      expect((await as(server, by).delete(`/api/posts/${id}`)).statusCode).toBe(200);
    }
    const unreadOf = async (who: SignedIn) => {
      const one = dataOf<{ unreadCount: number }>(await as(server, who).get(`/api/topics/${t.id}`));
      const list = dataOf<{ items: { id: string; unreadCount: number }[] }>(
        await as(server, who).get('/api/topics?limit=100'),
      );
      expect(list.items.find((item) => item.id === t.id)!.unreadCount).toBe(one.unreadCount);
      return one.unreadCount;
    };
    // Nobody has read anything yet, then Bob reads in steps up to the end.
    for (const who of [alice, bob, carol]) expect(await unreadOf(who)).toBe(await countedUnread(t.id, who));
    // 120 posts: 18 are Bob's own, and 3 of the others' are deleted.
    expect(await unreadOf(bob)).toBe(99);
    for (const marker of [1, 50, 70, 71, 100, 119, 120]) {
      await as(server, bob).put(`/api/topics/${t.id}/read`, { lastReadNumber: marker });
      expect(await unreadOf(bob)).toBe(await countedUnread(t.id, bob));
    }
    expect(await unreadOf(bob)).toBe(0);
    await as(server, carol).put(`/api/topics/${t.id}/read`, { lastReadNumber: 64 });
    expect(await unreadOf(carol)).toBe(await countedUnread(t.id, carol));
  });

  if (kind === 'sqlite') {
    it("answers from the partial indexes, not by walking the topic's posts", async () => {
      const alice = await signedIn(server);
      const compiled = selectTopics(server.ctx.db.kysely, alice.user.id).compile();
      const plan = await server.ctx.db.kysely.executeQuery<{ detail: string }>({
        ...compiled,
        sql: `explain query plan ${compiled.sql}`,
      });
      const details = plan.rows.map((r) => r.detail).join('\n');
      expect(details).toContain('posts_topic_author_live_index');
      expect(details).toContain('posts_topic_deleted_index');
      expect(details).not.toMatch(/SCAN (up|own|gone)\b/);
    });
  }
});
