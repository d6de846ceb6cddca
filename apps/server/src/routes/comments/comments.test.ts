import { ErrorCode } from '@btalk/contracts';
import { expect, it } from 'vitest';
import { eventsSince } from '../../events/eventLog.ts';
import { newId } from '../../ids.ts';
import { describeEachDatabase } from '../../test/db.ts';
import { useTestServer } from '../../test/server.ts';
import { signedIn } from '../../test/session.ts';
import { as, buildPost, buildTopic, dataOf } from '../../test/topics.ts';

interface CommentData {
  id: string;
  body: string;
  editedAt: string | null;
  deletedAt: string | null;
  abilities: Record<string, boolean>;
}

describeEachDatabase('comments API', (kind) => {
  const server = useTestServer(kind);

  it('requires authentication and names bad fields', async () => {
    const alice = await signedIn(server);
    const t = await buildTopic(server, alice);
    const post = await buildPost(server, alice, t.id);
    expect((await as(server, null).get(`/api/posts/${post.id}/comments`)).statusCode).toBe(401);
    expect(
      (await as(server, null).post(`/api/posts/${post.id}/comments`, { clientId: newId(), body: 'x' }))
        .statusCode,
    ).toBe(401);
    const bad = await as(server, alice).post(`/api/posts/${post.id}/comments`, { body: '' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.map((d: { field: string }) => d.field)).toEqual(
      expect.arrayContaining(['body.clientId', 'body.body']),
    );
  });

  it('comments idempotently, counts them, pages newest first, rings bells of the mentioned', async () => {
    const alice = await signedIn(server);
    const bob = await signedIn(server);
    const carol = await signedIn(server);
    const t = await buildTopic(server, alice);
    const post = await buildPost(server, alice, t.id);
    const request = { clientId: newId(), body: `ตอบกลับ @[Carol](user:${carol.user.id})` };
    const first = dataOf<CommentData>(await as(server, bob).post(`/api/posts/${post.id}/comments`, request));
    const again = dataOf<CommentData>(await as(server, bob).post(`/api/posts/${post.id}/comments`, request));
    expect(again.id).toBe(first.id);
    const conflict = await as(server, bob).post(`/api/posts/${post.id}/comments`, {
      ...request,
      body: 'other',
    });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().code).toBe(ErrorCode.conflict);
    const second = dataOf<CommentData>(
      await as(server, alice).post(`/api/posts/${post.id}/comments`, { clientId: newId(), body: 'second' }),
    );
    expect(
      dataOf<{ commentCount: number }>(await as(server, alice).get(`/api/posts/${post.id}`)).commentCount,
    ).toBe(2);
    expect(dataOf<{ bell: string }>(await as(server, carol).get(`/api/posts/${post.id}`)).bell).toBe('ring');
    const page1 = dataOf<{ items: CommentData[]; nextCursor: string }>(
      await as(server, alice).get(`/api/posts/${post.id}/comments?limit=1`),
    );
    expect(page1.items.map((c) => c.id)).toEqual([second.id]);
    const page2 = dataOf<{ items: CommentData[]; nextCursor: string | null }>(
      await as(server, alice).get(`/api/posts/${post.id}/comments?limit=1&cursor=${page1.nextCursor}`),
    );
    expect(page2.items.map((c) => c.id)).toEqual([first.id]);
    expect(page2.nextCursor).toBeNull();
    const events = await eventsSince(server.ctx.db.kysely, [`topic:${t.id}`], 0, 10);
    expect(events.filter((e) => e.type === 'comment.created')).toHaveLength(2);
  });

  it('lets the author edit, the author or a topic owner delete, and refuses others', async () => {
    const alice = await signedIn(server);
    const bob = await signedIn(server);
    const carol = await signedIn(server);
    const t = await buildTopic(server, alice);
    const post = await buildPost(server, alice, t.id);
    const c = dataOf<CommentData>(
      await as(server, bob).post(`/api/posts/${post.id}/comments`, { clientId: newId(), body: 'mine' }),
    );
    expect((await as(server, carol).patch(`/api/comments/${c.id}`, { body: 'x' })).statusCode).toBe(403);
    expect((await as(server, carol).delete(`/api/comments/${c.id}`)).statusCode).toBe(403);
    const edited = dataOf<CommentData>(
      await as(server, bob).patch(`/api/comments/${c.id}`, { body: 'mine, edited' }),
    );
    expect(edited).toMatchObject({ body: 'mine, edited', editedAt: expect.any(String) });
    const bad = await as(server, bob).patch(`/api/comments/${c.id}`, { body: '' });
    expect(bad.statusCode).toBe(400);
    const deleted = dataOf<CommentData>(await as(server, alice).delete(`/api/comments/${c.id}`));
    expect(deleted).toMatchObject({ body: '', deletedAt: expect.any(String) });
    expect(
      dataOf<{ commentCount: number }>(await as(server, alice).get(`/api/posts/${post.id}`)).commentCount,
    ).toBe(0);
  });

  it('hides comments of members-only topics from strangers (404)', async () => {
    const alice = await signedIn(server);
    const eve = await signedIn(server);
    const t = await buildTopic(server, alice, { visibility: 'members' });
    const post = await buildPost(server, alice, t.id);
    const c = dataOf<CommentData>(
      await as(server, alice).post(`/api/posts/${post.id}/comments`, { clientId: newId(), body: 'secret' }),
    );
    for (const res of await Promise.all([
      as(server, eve).patch(`/api/comments/${c.id}`, { body: 'x' }),
      as(server, eve).delete(`/api/comments/${c.id}`),
      as(server, eve).post(`/api/comments/${c.id}/reactions`, { clientId: newId(), emoji: '👍' }),
    ])) {
      expect(res.statusCode).toBe(404);
    }
  });
});
