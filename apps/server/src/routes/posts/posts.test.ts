import { ErrorCode } from '@btalk/contracts';
import { describe, expect, it } from 'vitest';
import { eventsSince } from '../../events/eventLog.ts';
import { newId } from '../../ids.ts';
import { insertPosts } from '../../test/bulkPosts.ts';
import { describeEachDatabase } from '../../test/db.ts';
import { useTestServer } from '../../test/server.ts';
import { signedIn } from '../../test/session.ts';
import { as, buildPost, buildTopic, dataOf } from '../../test/topics.ts';

interface PostData {
  id: string;
  number: number;
  body: string;
  bell: 'ring' | 'off';
  mentions: { id: string }[];
  pinnedAt: string | null;
  editedAt: string | null;
  deletedAt: string | null;
  abilities: Record<string, boolean>;
}

describeEachDatabase('posts API', (kind) => {
  const server = useTestServer(kind);

  describe('POST /api/topics/:topicId/posts', () => {
    it('requires authentication', async () => {
      const alice = await signedIn(server);
      const t = await buildTopic(server, alice);
      const res = await as(server, null).post(`/api/topics/${t.id}/posts`, { clientId: newId(), body: 'x' });
      expect(res.statusCode).toBe(401);
    });

    it('names bad fields', async () => {
      const alice = await signedIn(server);
      const t = await buildTopic(server, alice);
      const res = await as(server, alice).post(`/api/topics/${t.id}/posts`, {
        clientId: 'x',
        body: 'a'.repeat(20_001),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().details.map((d: { field: string }) => d.field)).toEqual(
        expect.arrayContaining(['body.clientId', 'body.body']),
      );
      const empty = await as(server, alice).post(`/api/topics/${t.id}/posts`, {
        clientId: newId(),
        body: '   ',
      });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().details[0]).toEqual({
        field: 'body.body',
        reason: 'write some text or attach a file',
      });
      const unknownMention = await as(server, alice).post(`/api/topics/${t.id}/posts`, {
        clientId: newId(),
        body: 'hi',
        mentions: ['nobody'],
      });
      expect(unknownMention.statusCode).toBe(400);
      expect(unknownMention.json().details[0].field).toBe('body.mentions');
    });

    it('writes a Markdown post with mentions; author and mentioned get the bell', async () => {
      const alice = await signedIn(server);
      const bob = await signedIn(server, { display_name: 'Bob' });
      const carol = await signedIn(server);
      const t = await buildTopic(server, alice);
      const body = `สวัสดีครับ @[Bob](user:${bob.user.id}) see **this**\n\n| a | b |\n|---|---|\n| 1 | 2 |`;
      const post = dataOf<PostData>(
        await as(server, alice).post(`/api/topics/${t.id}/posts`, {
          clientId: newId(),
          body,
          mentions: [carol.user.id],
        }),
      );
      expect(post).toMatchObject({ number: 1, body, bell: 'ring', editedAt: null, deletedAt: null });
      expect(post.mentions.map((m) => m.id).sort()).toEqual([bob.user.id, carol.user.id].sort());
      expect(post.abilities).toEqual({ edit: true, delete: true, pin: true, comment: true, react: true });
      for (const who of [bob, carol]) {
        expect(dataOf<PostData>(await as(server, who).get(`/api/posts/${post.id}`)).bell).toBe('ring');
      }
      const stranger = await signedIn(server);
      const seen = dataOf<PostData>(await as(server, stranger).get(`/api/posts/${post.id}`));
      expect(seen.bell).toBe('off');
      expect(seen.abilities).toEqual({ edit: false, delete: false, pin: false, comment: true, react: true });
      // The topic page reads each reader's own bell with its page of posts.
      const bellOnPage = async (who: typeof alice) =>
        dataOf<{ items: PostData[] }>(await as(server, who).get(`/api/topics/${t.id}/posts`)).items[0]!.bell;
      expect(await bellOnPage(bob)).toBe('ring');
      expect(await bellOnPage(stranger)).toBe('off');
      expect((await as(server, bob).put(`/api/posts/${post.id}/bell`, { bell: 'off' })).statusCode).toBe(200);
      expect(await bellOnPage(bob)).toBe('off');
      expect(await bellOnPage(carol)).toBe('ring');
      const events = await eventsSince(server.ctx.db.kysely, [`topic:${t.id}`], 0, 10);
      expect(events.map((e) => e.type)).toEqual(['topic.created', 'post.created']);
      expect(events[1]!.payload).toMatchObject({ post: { id: post.id, body, number: 1 } });
    });

    it('is idempotent by clientId, and 409 for a different post with the same id', async () => {
      const alice = await signedIn(server);
      const t = await buildTopic(server, alice);
      const request = { clientId: newId(), body: 'only once' };
      const [a, b] = await Promise.all([
        as(server, alice).post(`/api/topics/${t.id}/posts`, request),
        as(server, alice).post(`/api/topics/${t.id}/posts`, request),
      ]);
      expect(dataOf<PostData>(a).id).toBe(dataOf<PostData>(b).id);
      const again = dataOf<PostData>(await as(server, alice).post(`/api/topics/${t.id}/posts`, request));
      expect(again.id).toBe(dataOf<PostData>(a).id);
      const page = dataOf<{ items: PostData[] }>(await as(server, alice).get(`/api/topics/${t.id}/posts`));
      expect(page.items).toHaveLength(1);
      const different = await as(server, alice).post(`/api/topics/${t.id}/posts`, {
        ...request,
        body: 'another',
      });
      expect(different.statusCode).toBe(409);
      expect(different.json().code).toBe(ErrorCode.conflict);
      // Another person's post with the same client id is theirs, not a conflict.
      const bob = await signedIn(server);
      expect((await as(server, bob).post(`/api/topics/${t.id}/posts`, request)).statusCode).toBe(200);
    });

    it('refuses to mention a non-member in a members-only topic', async () => {
      const alice = await signedIn(server);
      const eve = await signedIn(server);
      const t = await buildTopic(server, alice, { visibility: 'members' });
      const res = await as(server, alice).post(`/api/topics/${t.id}/posts`, {
        clientId: newId(),
        body: `@[Eve](user:${eve.user.id})`,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain('not a member');
    });
  });

  describe('GET /api/topics/:topicId/posts', () => {
    it('pages newest first with cursors, pinned posts listed first on the first page', async () => {
      const alice = await signedIn(server);
      const t = await buildTopic(server, alice);
      const posts = [];
      for (let i = 1; i <= 5; i++) posts.push(await buildPost(server, alice, t.id, `post ${i}`));
      dataOf(await as(server, alice).put(`/api/posts/${posts[1]!.id}/pin`, { pinned: true }));
      const first = dataOf<{ items: PostData[]; pinned: PostData[]; nextCursor: string }>(
        await as(server, alice).get(`/api/topics/${t.id}/posts?limit=2`),
      );
      expect(first.pinned.map((p) => p.number)).toEqual([2]);
      expect(first.items.map((p) => p.number)).toEqual([5, 4]);
      const second = dataOf<{ items: PostData[]; pinned: PostData[]; nextCursor: string }>(
        await as(server, alice).get(`/api/topics/${t.id}/posts?limit=2&cursor=${first.nextCursor}`),
      );
      expect(second.items.map((p) => p.number)).toEqual([3, 2]);
      expect(second.pinned).toEqual([]);
      const last = dataOf<{ items: PostData[]; nextCursor: string | null }>(
        await as(server, alice).get(`/api/topics/${t.id}/posts?limit=2&cursor=${second.nextCursor}`),
      );
      expect(last.items.map((p) => p.number)).toEqual([1]);
      expect(last.nextCursor).toBeNull();
      const bad = await as(server, alice).get(`/api/topics/${t.id}/posts?limit=500`);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details[0].field).toBe('query.limit');
    });

    it('hides posts of members-only topics from strangers on every post route', async () => {
      const alice = await signedIn(server);
      const eve = await signedIn(server);
      const t = await buildTopic(server, alice, { visibility: 'members' });
      const post = await buildPost(server, alice, t.id, 'secret');
      const eveApi = as(server, eve);
      for (const res of await Promise.all([
        eveApi.get(`/api/posts/${post.id}`),
        eveApi.patch(`/api/posts/${post.id}`, { body: 'x' }),
        eveApi.delete(`/api/posts/${post.id}`),
        eveApi.put(`/api/posts/${post.id}/pin`, { pinned: true }),
        eveApi.put(`/api/posts/${post.id}/bell`, { bell: 'ring' }),
        eveApi.get(`/api/posts/${post.id}/comments`),
        eveApi.post(`/api/posts/${post.id}/comments`, { clientId: newId(), body: 'x' }),
        eveApi.post(`/api/posts/${post.id}/reactions`, { clientId: newId(), emoji: '👍' }),
        eveApi.delete(`/api/posts/${post.id}/reactions/${encodeURIComponent('👍')}`),
      ])) {
        expect(res.statusCode).toBe(404);
        expect(res.json().code).toBe(ErrorCode.notFound);
      }
    });
  });

  describe('GET /api/topics/:topicId/posts around a post, oldest first and newer pages', () => {
    interface Page {
      items: PostData[];
      nextCursor: string | null;
      newerCursor: string | null;
      pinned: PostData[];
    }
    const numbers = (page: Page) => page.items.map((p) => p.number);
    const range = (from: number, to: number) => Array.from({ length: from - to + 1 }, (_, i) => from - i); // from down to `to`, newest first

    it('opens any post of a 100,000-post topic directly and pages both ways from it', async () => {
      const alice = await signedIn(server);
      const t = await buildTopic(server, alice);
      await insertPosts(server.ctx.db.kysely, t.id, alice.user.id, 100_000, 'Entry');
      const get = async (query: string) =>
        dataOf<Page>(await as(server, alice).get(`/api/topics/${t.id}/posts?${query}`));

      const around = await get('around=50000&limit=30');
      // The post, 14 older ones and 15 newer ones, newest first as every page is.
      expect(numbers(around)).toEqual(range(50_015, 50_001).concat(range(50_000, 49_986)));
      expect(around.items.find((p) => p.number === 50_000)?.body).toBe('Entry 50000');
      expect(around.pinned).toEqual([]);
      const older = await get(`cursor=${around.nextCursor}&limit=30`);
      expect(numbers(older)).toEqual(range(49_985, 49_956));
      expect(older.newerCursor).not.toBeNull();
      const newer = await get(`cursor=${around.newerCursor}&limit=30`);
      expect(numbers(newer)).toEqual(range(50_045, 50_016));
      expect(newer.nextCursor).not.toBeNull();
      // A newer page's older cursor and an older page's newer cursor lead back to the same posts.
      expect(numbers(await get(`cursor=${newer.nextCursor}&limit=15`))).toEqual(range(50_015, 50_001));
      expect(numbers(await get(`cursor=${older.newerCursor}&limit=15`))).toEqual(range(50_000, 49_986));

      // The top is one request away, and its newer pages run on to the newest post.
      const oldest = await get('from=oldest&limit=50');
      expect(numbers(oldest)).toEqual(range(50, 1));
      expect(oldest.nextCursor).toBeNull();
      expect(numbers(await get(`cursor=${oldest.newerCursor}&limit=50`))).toEqual(range(100, 51));
      const newest = await get('limit=10');
      expect(numbers(newest)).toEqual(range(100_000, 99_991));
      expect(newest.newerCursor).toBeNull();
      const last = await get(`cursor=${encodeURIComponent(newest.nextCursor ?? '')}&limit=10`);
      expect(numbers(last)).toEqual(range(99_990, 99_981));
      const end = await get(`cursor=${last.newerCursor}&limit=10`);
      expect(numbers(end)).toEqual(range(100_000, 99_991));
      expect(end.newerCursor).toBeNull();

      // At the edges the page is shorter on that side, with no cursor past the edge.
      const first = await get('around=1&limit=30');
      expect(numbers(first)).toEqual(range(16, 1));
      expect(first.nextCursor).toBeNull();
      const top = await get('around=100000&limit=30');
      expect(numbers(top)).toEqual(range(100_000, 99_986));
      expect(top.newerCursor).toBeNull();
    }, 60_000);

    it('lists the pinned posts on a page asked around a post or from the oldest', async () => {
      const alice = await signedIn(server);
      const t = await buildTopic(server, alice);
      const posts = [];
      for (let i = 1; i <= 4; i++) posts.push(await buildPost(server, alice, t.id, `post ${i}`));
      dataOf(await as(server, alice).put(`/api/posts/${posts[3]!.id}/pin`, { pinned: true }));
      for (const query of ['around=2&limit=2', 'from=oldest&limit=2']) {
        const page = dataOf<Page>(await as(server, alice).get(`/api/topics/${t.id}/posts?${query}`));
        expect(page.pinned.map((p) => p.number)).toEqual([4]);
      }
    });

    it('names the field of a bad page request', async () => {
      const alice = await signedIn(server);
      const t = await buildTopic(server, alice);
      const cursor = dataOf<Page>(
        await as(server, alice).get(`/api/topics/${t.id}/posts?around=1`),
      ).nextCursor;
      const made = Buffer.from(JSON.stringify([3, 'sideways'])).toString('base64url');
      for (const [query, field] of [
        ['around=abc', 'query.around'],
        ['around=0', 'query.around'],
        ['around=-5', 'query.around'],
        ['around=1.5', 'query.around'],
        [`around=3&cursor=${cursor ?? 'WzNd'}`, 'query.around'],
        ['around=3&from=oldest', 'query.around'],
        ['from=newest', 'query.from'],
        [`cursor=${made}`, 'query.cursor'],
      ] as const) {
        const res = await as(server, alice).get(`/api/topics/${t.id}/posts?${query}`);
        expect(res.statusCode, query).toBe(400);
        expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
      }
    });

    it('requires authentication and hides a members-only topic from strangers', async () => {
      const alice = await signedIn(server);
      const eve = await signedIn(server);
      const t = await buildTopic(server, alice, { visibility: 'members' });
      await buildPost(server, alice, t.id, 'secret');
      for (const query of ['around=1', 'from=oldest']) {
        const anonymous = await as(server, null).get(`/api/topics/${t.id}/posts?${query}`);
        expect(anonymous.statusCode).toBe(401);
        const stranger = await as(server, eve).get(`/api/topics/${t.id}/posts?${query}`);
        expect(stranger.statusCode).toBe(404);
        expect(stranger.json().code).toBe(ErrorCode.notFound);
      }
    });
  });

  describe('edit, delete, pin and bell', () => {
    it('lets the author edit ("edited") and refuses others with 403', async () => {
      const alice = await signedIn(server);
      const bob = await signedIn(server);
      const t = await buildTopic(server, alice);
      const post = await buildPost(server, bob, t.id, 'first');
      expect(
        (await as(server, alice).patch(`/api/posts/${post.id}`, { body: 'owner edit' })).statusCode,
      ).toBe(403);
      expect((await as(server, null).patch(`/api/posts/${post.id}`, { body: 'x' })).statusCode).toBe(401);
      const bad = await as(server, bob).patch(`/api/posts/${post.id}`, { body: '' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details[0].field).toBe('body.body');
      const edited = dataOf<PostData>(
        await as(server, bob).patch(`/api/posts/${post.id}`, {
          body: `now with @[A](user:${alice.user.id})`,
        }),
      );
      expect(edited.body).toContain('now with');
      expect(edited.editedAt).not.toBeNull();
      expect(dataOf<PostData>(await as(server, alice).get(`/api/posts/${post.id}`)).bell).toBe('ring');
    });

    it('lets the author, a topic owner and an admin delete; leaves a placeholder', async () => {
      const alice = await signedIn(server);
      const bob = await signedIn(server);
      const carol = await signedIn(server);
      const admin = await signedIn(server, { role: 'admin' });
      const t = await buildTopic(server, alice);
      const byBob = await buildPost(server, bob, t.id, 'bob writes');
      const byCarol = await buildPost(server, carol, t.id, 'carol writes');
      const third = await buildPost(server, carol, t.id, 'carol again');
      expect((await as(server, bob).delete(`/api/posts/${byCarol.id}`)).statusCode).toBe(403);
      const own = dataOf<PostData>(await as(server, bob).delete(`/api/posts/${byBob.id}`));
      expect(own).toMatchObject({ body: '', deletedAt: expect.any(String) });
      expect(own.abilities).toMatchObject({ edit: false, delete: false, comment: false });
      dataOf(await as(server, alice).delete(`/api/posts/${byCarol.id}`));
      dataOf(await as(server, admin).delete(`/api/posts/${third.id}`));
      const page = dataOf<{ items: PostData[] }>(await as(server, bob).get(`/api/topics/${t.id}/posts`));
      expect(page.items.map((p) => [p.number, p.body])).toEqual([
        [3, ''],
        [2, ''],
        [1, ''],
      ]);
      expect((await as(server, bob).delete(`/api/posts/${byBob.id}`)).statusCode).toBe(403);
    });

    it('lets topic owners pin, not other people', async () => {
      const alice = await signedIn(server);
      const bob = await signedIn(server);
      const t = await buildTopic(server, alice);
      const post = await buildPost(server, bob, t.id);
      expect((await as(server, bob).put(`/api/posts/${post.id}/pin`, { pinned: true })).statusCode).toBe(403);
      const pinned = dataOf<PostData>(
        await as(server, alice).put(`/api/posts/${post.id}/pin`, { pinned: true }),
      );
      expect(pinned.pinnedAt).not.toBeNull();
      const unpinned = dataOf<PostData>(
        await as(server, alice).put(`/api/posts/${post.id}/pin`, { pinned: false }),
      );
      expect(unpinned.pinnedAt).toBeNull();
      const bad = await as(server, alice).put(`/api/posts/${post.id}/pin`, {});
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details[0].field).toBe('body.pinned');
    });

    it('toggles my bell and records it in my room', async () => {
      const alice = await signedIn(server);
      const bob = await signedIn(server);
      const t = await buildTopic(server, alice);
      const post = await buildPost(server, alice, t.id);
      expect(
        dataOf<PostData>(await as(server, bob).put(`/api/posts/${post.id}/bell`, { bell: 'ring' })).bell,
      ).toBe('ring');
      expect(
        dataOf<PostData>(await as(server, alice).put(`/api/posts/${post.id}/bell`, { bell: 'off' })).bell,
      ).toBe('off');
      expect(dataOf<PostData>(await as(server, bob).get(`/api/posts/${post.id}`)).bell).toBe('ring');
      const bad = await as(server, bob).put(`/api/posts/${post.id}/bell`, { bell: 'loud' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details[0].field).toBe('body.bell');
      const events = await eventsSince(server.ctx.db.kysely, [`user:${bob.user.id}`], 0, 10);
      expect(events.map((e) => e.type)).toEqual(['me.bell_changed']);
      expect((await as(server, null).put(`/api/posts/${post.id}/bell`, { bell: 'ring' })).statusCode).toBe(
        401,
      );
    });
  });
});
