import { NotificationDomainEvent, TopicDomainEvent } from '@btalk/contracts';
import { expect, it } from 'vitest';
import { eventsSince } from '../events/eventLog.ts';
import { describeEachDatabase } from '../test/db.ts';
import { buildUser } from '../test/factories.ts';
import { useTestServer } from '../test/server.ts';
import { seedDevelopmentTopics } from './seedDevelopmentTopics.ts';

describeEachDatabase('seedDevelopmentTopics', (kind) => {
  const server = useTestServer(kind);

  const counts = async () => {
    const db = server.ctx.db.kysely;
    const count = async (table: 'topics' | 'posts' | 'comments' | 'reactions' | 'events') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      topics: await count('topics'),
      posts: await count('posts'),
      comments: await count('comments'),
      reactions: await count('reactions'),
      events: await count('events'),
    };
  };

  it('creates Thai and English topics with posts, comments and reactions, once', async () => {
    const db = server.ctx.db.kysely;
    const people = [
      await buildUser(db, { display_name: 'สมหญิง รักงาน', locale: 'th' }),
      await buildUser(db, { display_name: 'John Carter' }),
      await buildUser(db, { display_name: 'นภา แสงทอง', locale: 'th' }),
    ];
    await expect(seedDevelopmentTopics(server.ctx, people.slice(0, 1))).rejects.toThrow(
      'at least two people',
    );
    await seedDevelopmentTopics(server.ctx, people);
    const first = await counts();
    expect(first).toMatchObject({ topics: 3, posts: 7, comments: 5, reactions: 6 });
    const posts = await db.selectFrom('posts').select('body').execute();
    expect(posts.some((p) => /[\u0E00-\u0E7F]/.test(p.body))).toBe(true);
    expect(posts.some((p) => /Hello everyone/.test(p.body))).toBe(true);
    const lotus = await db
      .selectFrom('topics')
      .selectAll()
      .where('visibility', '=', 'members')
      .executeTakeFirstOrThrow();
    expect(lotus.member_count).toBe(3);

    // Every recorded event matches the contracts' union: what realtime clients will parse.
    const topicIds = (await db.selectFrom('topics').select('id').execute()).map((t) => `topic:${t.id}`);
    const events = await eventsSince(db, [...topicIds, ...people.map((p) => `user:${p.id}`)], 0, 1000);
    expect(new Set(events.map((e) => e.type))).toEqual(
      new Set([
        'topic.created',
        'me.membership_added',
        'post.created',
        'comment.created',
        'reaction.added',
        'notification.created',
      ]),
    );
    for (const e of events) {
      const union = e.type.startsWith('notification.') ? NotificationDomainEvent : TopicDomainEvent;
      union.parse({ type: e.type, payload: e.payload });
    }

    await seedDevelopmentTopics(server.ctx, people);
    expect(await counts()).toEqual(first);
  });
});
