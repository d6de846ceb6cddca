import { ErrorCode } from '@btalk/contracts';
import { describe, expect, it } from 'vitest';
import { eventsSince } from '../../events/eventLog.ts';
import { newId } from '../../ids.ts';
import { describeEachDatabase } from '../../test/db.ts';
import { useTestServer } from '../../test/server.ts';
import { signedIn } from '../../test/session.ts';
import { as, buildPost, buildTopic, dataOf } from '../../test/topics.ts';

interface TopicData {
  id: string;
  title: string;
  archivedAt: string | null;
  abilities: { archive: boolean; post: boolean };
}
interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

describeEachDatabase('topic archive', (kind) => {
  const server = useTestServer(kind);

  describe('GET /api/topics?archived=true', () => {
    it('lists the archived topics one may see, newest archived first, paged and found by title', async () => {
      const alice = await signedIn(server);
      const bob = await signedIn(server);
      const word = newId().slice(-8);
      const first = await buildTopic(server, alice, { title: `Old ${word} plans` });
      const second = await buildTopic(server, alice, { title: `New ${word.toUpperCase()} plans` });
      const hidden = await buildTopic(server, alice, { title: `Secret ${word}`, visibility: 'members' });
      const other = await buildTopic(server, alice, { title: 'Unrelated' });
      for (const t of [first, second, hidden, other]) {
        expect((await as(server, alice).post(`/api/topics/${t.id}/archive`)).statusCode).toBe(200);
      }
      // Activity after archiving does not reorder the archive: `first` was archived before `second`.
      const page1 = dataOf<Page<TopicData>>(
        await as(server, bob).get(`/api/topics?archived=true&q=${word.toLowerCase()}&limit=1`),
      );
      expect(page1.items.map((t) => t.id)).toEqual([second.id]);
      expect(page1.nextCursor).not.toBeNull();
      const page2 = dataOf<Page<TopicData>>(
        await as(server, bob).get(
          `/api/topics?archived=true&q=${word}&limit=1&cursor=${encodeURIComponent(page1.nextCursor!)}`,
        ),
      );
      expect(page2.items.map((t) => t.id)).toEqual([first.id]);
      expect(page2.nextCursor).toBeNull();
      const alices = dataOf<Page<TopicData>>(
        await as(server, alice).get(`/api/topics?archived=true&q=${word}`),
      );
      expect(alices.items.map((t) => t.id)).toEqual([hidden.id, second.id, first.id]);
      // `%` is a character to find, not a wildcard.
      const percent = dataOf<Page<TopicData>>(await as(server, alice).get('/api/topics?archived=true&q=%25'));
      expect(percent.items.map((t) => t.id)).not.toContain(first.id);
    });

    it('names a title search that is too long (400)', async () => {
      const alice = await signedIn(server);
      const res = await as(server, alice).get(`/api/topics?archived=true&q=${'x'.repeat(101)}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().details[0].field).toBe('query.q');
    });
  });

  describe('POST /api/topics/:topicId/unarchive (restore)', () => {
    it('requires authentication', async () => {
      const alice = await signedIn(server);
      const t = await buildTopic(server, alice);
      await as(server, alice).post(`/api/topics/${t.id}/archive`);
      expect((await as(server, null).post(`/api/topics/${t.id}/unarchive`)).statusCode).toBe(401);
    });

    it('is refused to a member who is not an owner (403), hidden from a stranger (404)', async () => {
      const alice = await signedIn(server);
      const bob = await signedIn(server);
      const eve = await signedIn(server);
      const t = await buildTopic(server, alice, { visibility: 'members', memberIds: [bob.user.id] });
      await as(server, alice).post(`/api/topics/${t.id}/archive`);
      const byBob = await as(server, bob).post(`/api/topics/${t.id}/unarchive`);
      expect(byBob.statusCode).toBe(403);
      expect(byBob.json().code).toBe(ErrorCode.forbidden);
      expect(dataOf<TopicData>(await as(server, bob).get(`/api/topics/${t.id}`)).abilities.archive).toBe(
        false,
      );
      expect((await as(server, eve).post(`/api/topics/${t.id}/unarchive`)).statusCode).toBe(404);
      expect(dataOf<TopicData>(await as(server, alice).get(`/api/topics/${t.id}`)).archivedAt).not.toBeNull();
    });

    it('names a bad topic id (400)', async () => {
      const alice = await signedIn(server);
      const res = await as(server, alice).post(`/api/topics/${'x'.repeat(65)}/unarchive`);
      expect(res.statusCode).toBe(400);
      expect(res.json().details[0].field).toBe('params.topicId');
    });

    it('returns the topic to everyone’s list, with an event for those watching', async () => {
      const alice = await signedIn(server);
      const bob = await signedIn(server);
      const t = await buildTopic(server, alice);
      await as(server, alice).post(`/api/topics/${t.id}/archive`);
      const open = () => as(server, bob).get('/api/topics?limit=100');
      expect(dataOf<Page<TopicData>>(await open()).items.map((x) => x.id)).not.toContain(t.id);
      const restored = dataOf<TopicData>(await as(server, alice).post(`/api/topics/${t.id}/unarchive`));
      expect(restored).toMatchObject({ archivedAt: null, abilities: { post: true } });
      expect(dataOf<Page<TopicData>>(await open()).items.map((x) => x.id)).toContain(t.id);
      const archived = dataOf<Page<TopicData>>(
        await as(server, bob).get('/api/topics?archived=true&limit=100'),
      );
      expect(archived.items.map((x) => x.id)).not.toContain(t.id);
      const events = await eventsSince(server.ctx.db.kysely, [`topic:${t.id}`], 0, 10);
      expect(events.at(-1)).toMatchObject({
        type: 'topic.updated',
        payload: { topic: { id: t.id, archivedAt: null } },
      });
    });

    it('lets an admin restore a topic they may see', async () => {
      const alice = await signedIn(server);
      const admin = await signedIn(server, { role: 'admin' });
      const t = await buildTopic(server, alice);
      await as(server, alice).post(`/api/topics/${t.id}/archive`);
      expect(
        dataOf<TopicData>(await as(server, admin).post(`/api/topics/${t.id}/unarchive`)).archivedAt,
      ).toBeNull();
    });
  });

  it('search keeps finding an archived topic’s posts, marked as archived', async () => {
    const alice = await signedIn(server);
    const bob = await signedIn(server);
    const word = `zq${newId().slice(-6)}`;
    const t = await buildTopic(server, alice);
    await buildPost(server, alice, t.id, `plans for ${word}`);
    const find = async () =>
      dataOf<Page<{ topicId: string; kind: string; topicArchived: boolean }>>(
        await as(server, bob).get(`/api/search?q=${word}`),
      ).items;
    expect(await find()).toEqual([
      expect.objectContaining({ topicId: t.id, kind: 'post', topicArchived: false }),
    ]);
    await as(server, alice).post(`/api/topics/${t.id}/archive`);
    expect(await find()).toEqual([
      expect.objectContaining({ topicId: t.id, kind: 'post', topicArchived: true }),
    ]);
  });
});
