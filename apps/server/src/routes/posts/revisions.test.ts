import { describe, expect, it } from 'vitest';
import { newId } from '../../ids.ts';
import { describeEachDatabase } from '../../test/db.ts';
import { useTestServer } from '../../test/server.ts';
import { signedIn } from '../../test/session.ts';
import { as, buildPost, buildTopic, dataOf } from '../../test/topics.ts';

interface RevisionData {
  number: number;
  body: string;
  editor: { id: string; displayName: string };
  writtenAt: string;
  replacedAt: string;
}

describeEachDatabase('post revisions API', (kind) => {
  const server = useTestServer(kind);

  describe('GET /api/posts/:postId/revisions', () => {
    it('requires authentication', async () => {
      const alice = await signedIn(server);
      const t = await buildTopic(server, alice);
      const post = await buildPost(server, alice, t.id);
      expect((await as(server, null).get(`/api/posts/${post.id}/revisions`)).statusCode).toBe(401);
    });

    it('hides a members-only topic’s post from a stranger (404), not from a member', async () => {
      const alice = await signedIn(server);
      const bob = await signedIn(server);
      const eve = await signedIn(server);
      const t = await buildTopic(server, alice, { visibility: 'members', memberIds: [bob.user.id] });
      const post = await buildPost(server, alice, t.id, 'first');
      await as(server, alice).patch(`/api/posts/${post.id}`, { body: 'second' });
      const res = await as(server, eve).get(`/api/posts/${post.id}/revisions`);
      expect(res.statusCode).toBe(404);
      expect(JSON.stringify(res.json())).not.toContain('first');
      const seen = dataOf<{ items: RevisionData[] }>(
        await as(server, bob).get(`/api/posts/${post.id}/revisions`),
      );
      expect(seen.items.map((r) => r.body)).toEqual(['first']);
    });

    it('names a bad post id (400) and answers 404 for one that does not exist', async () => {
      const alice = await signedIn(server);
      const bad = await as(server, alice).get(`/api/posts/${'x'.repeat(65)}/revisions`);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details[0].field).toBe('params.postId');
      expect((await as(server, alice).get('/api/posts/nope/revisions')).statusCode).toBe(404);
    });

    it('keeps each replaced text, newest first, with who wrote it and when', async () => {
      const alice = await signedIn(server, { display_name: 'Alice' });
      const bob = await signedIn(server, { display_name: 'Bob' });
      const t = await buildTopic(server, alice);
      const post = await buildPost(server, alice, t.id, 'one');
      const created = dataOf<{ createdAt: string }>(await as(server, bob).get(`/api/posts/${post.id}`));
      expect(
        dataOf<{ items: unknown[] }>(await as(server, bob).get(`/api/posts/${post.id}/revisions`)).items,
      ).toEqual([]);
      const mention = `two @[Bob](user:${bob.user.id})`;
      const second = dataOf<{ editedAt: string }>(
        await as(server, alice).patch(`/api/posts/${post.id}`, { body: mention }),
      );
      const third = dataOf<{ editedAt: string; body: string }>(
        await as(server, alice).patch(`/api/posts/${post.id}`, { body: 'three' }),
      );
      expect(third.body).toBe('three');
      const { items } = dataOf<{ items: RevisionData[] }>(
        await as(server, bob).get(`/api/posts/${post.id}/revisions`),
      );
      expect(items.map((r) => [r.number, r.body])).toEqual([
        [2, mention],
        [1, 'one'],
      ]);
      expect(items.map((r) => r.editor.displayName)).toEqual(['Alice', 'Alice']);
      expect(items[1]!.writtenAt).toBe(created.createdAt);
      expect(items[1]!.replacedAt).toBe(second.editedAt);
      expect(items[0]!.writtenAt).toBe(second.editedAt);
      expect(items[0]!.replacedAt).toBe(third.editedAt);
    });

    it('forgets the history when the post is deleted', async () => {
      const alice = await signedIn(server);
      const t = await buildTopic(server, alice);
      const post = await buildPost(server, alice, t.id, 'secret words');
      await as(server, alice).patch(`/api/posts/${post.id}`, { body: 'better words' });
      expect((await as(server, alice).delete(`/api/posts/${post.id}`)).statusCode).toBe(200);
      const after = await as(server, alice).get(`/api/posts/${post.id}/revisions`);
      expect(dataOf<{ items: unknown[] }>(after).items).toEqual([]);
    });
  });

  describe('GET /api/comments/:commentId/revisions', () => {
    async function commentOn(who: Parameters<typeof as>[1], postId: string, body: string) {
      return dataOf<{ id: string }>(
        await as(server, who).post(`/api/posts/${postId}/comments`, { clientId: newId(), body }),
      );
    }

    it('requires authentication, hides a stranger’s view (404) and names a bad id (400)', async () => {
      const alice = await signedIn(server);
      const eve = await signedIn(server);
      const t = await buildTopic(server, alice, { visibility: 'members' });
      const post = await buildPost(server, alice, t.id);
      const comment = await commentOn(alice, post.id, 'first thought');
      await as(server, alice).patch(`/api/comments/${comment.id}`, { body: 'second thought' });
      expect((await as(server, null).get(`/api/comments/${comment.id}/revisions`)).statusCode).toBe(401);
      const hidden = await as(server, eve).get(`/api/comments/${comment.id}/revisions`);
      expect(hidden.statusCode).toBe(404);
      expect(JSON.stringify(hidden.json())).not.toContain('first thought');
      const bad = await as(server, alice).get(`/api/comments/${'x'.repeat(65)}/revisions`);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details[0].field).toBe('params.commentId');
    });

    it('keeps each replaced text newest first, and forgets them when the comment is deleted', async () => {
      const alice = await signedIn(server);
      const bob = await signedIn(server, { display_name: 'Bob' });
      const t = await buildTopic(server, alice);
      const post = await buildPost(server, alice, t.id);
      const comment = await commentOn(bob, post.id, 'one');
      await as(server, bob).patch(`/api/comments/${comment.id}`, { body: 'two' });
      await as(server, bob).patch(`/api/comments/${comment.id}`, { body: 'three' });
      const { items } = dataOf<{ items: RevisionData[] }>(
        await as(server, alice).get(`/api/comments/${comment.id}/revisions`),
      );
      expect(items.map((r) => [r.number, r.body, r.editor.displayName])).toEqual([
        [2, 'two', 'Bob'],
        [1, 'one', 'Bob'],
      ]);
      expect((await as(server, bob).delete(`/api/comments/${comment.id}`)).statusCode).toBe(200);
      const after = await as(server, alice).get(`/api/comments/${comment.id}/revisions`);
      expect(dataOf<{ items: unknown[] }>(after).items).toEqual([]);
    });
  });
});
