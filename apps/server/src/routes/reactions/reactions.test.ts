import { ErrorCode, MAX_DISTINCT_REACTIONS } from '@btalk/contracts';
import { expect, it } from 'vitest';
import { newId } from '../../ids.ts';
import { describeEachDatabase } from '../../test/db.ts';
import { useTestServer } from '../../test/server.ts';
import { signedIn } from '../../test/session.ts';
import { as, buildPost, buildTopic, dataOf } from '../../test/topics.ts';

interface Summary {
  emoji: string;
  count: number;
  people: { id: string }[];
}

describeEachDatabase('reactions API', (kind) => {
  const server = useTestServer(kind);
  const thumbs = encodeURIComponent('👍');

  it('requires authentication and one emoji', async () => {
    const alice = await signedIn(server);
    const t = await buildTopic(server, alice);
    const post = await buildPost(server, alice, t.id);
    expect(
      (await as(server, null).post(`/api/posts/${post.id}/reactions`, { clientId: newId(), emoji: '👍' }))
        .statusCode,
    ).toBe(401);
    for (const emoji of ['pizza', '👍👍', '👍 ', 'ก', '1', '']) {
      const bad = await as(server, alice).post(`/api/posts/${post.id}/reactions`, {
        clientId: newId(),
        emoji,
      });
      expect(bad.statusCode, emoji).toBe(400);
      expect(bad.json().details[0].field).toBe('body.emoji');
    }
    const badDelete = await as(server, alice).delete(`/api/posts/${post.id}/reactions/pizza`);
    expect(badDelete.statusCode).toBe(400);
    expect(badDelete.json().details[0].field).toBe('params.emoji');
  });

  it('takes any emoji of the full picker, in the order each was first given', async () => {
    const alice = await signedIn(server);
    const bob = await signedIn(server);
    const t = await buildTopic(server, alice);
    const post = await buildPost(server, alice, t.id);
    // Food, a skin tone, a flag, a keycap and a ZWJ family: all one emoji each.
    const emojis = ['🍕', '👍🏽', '🇹🇭', '1️⃣', '👨‍👩‍👧', '👍'];
    for (const emoji of emojis) {
      dataOf(await as(server, alice).post(`/api/posts/${post.id}/reactions`, { clientId: newId(), emoji }));
    }
    dataOf(await as(server, bob).post(`/api/posts/${post.id}/reactions`, { clientId: newId(), emoji: '👍' }));
    dataOf(await as(server, bob).post(`/api/posts/${post.id}/reactions`, { clientId: newId(), emoji: '🍕' }));
    const reactions = dataOf<{ reactions: Summary[] }>(
      await as(server, bob).get(`/api/posts/${post.id}`),
    ).reactions;
    expect(reactions.map((r) => [r.emoji, r.count])).toEqual([
      ['🍕', 2],
      ['👍🏽', 1],
      ['🇹🇭', 1],
      ['1️⃣', 1],
      ['👨‍👩‍👧', 1],
      ['👍', 2],
    ]);
    const removed = await as(server, alice).delete(
      `/api/posts/${post.id}/reactions/${encodeURIComponent('👨‍👩‍👧')}`,
    );
    expect(dataOf(removed)).toEqual({ removed: true });
  });

  it(`keeps to ${MAX_DISTINCT_REACTIONS} different emojis on one post (409), adding to those is fine`, async () => {
    const alice = await signedIn(server);
    const bob = await signedIn(server);
    const t = await buildTopic(server, alice);
    const post = await buildPost(server, alice, t.id);
    // Animals from U+1F400 on: each one emoji.
    const emojis = Array.from({ length: MAX_DISTINCT_REACTIONS }, (_, i) =>
      String.fromCodePoint(0x1f400 + i),
    );
    for (const emoji of emojis) {
      dataOf(await as(server, alice).post(`/api/posts/${post.id}/reactions`, { clientId: newId(), emoji }));
    }
    const one = await as(server, bob).post(`/api/posts/${post.id}/reactions`, {
      clientId: newId(),
      emoji: '🍕',
    });
    expect(one.statusCode).toBe(409);
    expect(one.json().message).toContain(`${MAX_DISTINCT_REACTIONS} different reactions`);
    dataOf(
      await as(server, bob).post(`/api/posts/${post.id}/reactions`, { clientId: newId(), emoji: emojis[3]! }),
    );
  });

  it('adds reactions idempotently, counts who reacted, and takes them back', async () => {
    const alice = await signedIn(server, { display_name: 'Alice' });
    const bob = await signedIn(server, { display_name: 'Bob' });
    const t = await buildTopic(server, alice);
    const post = await buildPost(server, alice, t.id);
    const request = { clientId: newId(), emoji: '👍' };
    const first = dataOf<{ id: string }>(
      await as(server, bob).post(`/api/posts/${post.id}/reactions`, request),
    );
    const again = dataOf<{ id: string }>(
      await as(server, bob).post(`/api/posts/${post.id}/reactions`, request),
    );
    expect(again.id).toBe(first.id);
    const conflict = await as(server, bob).post(`/api/posts/${post.id}/reactions`, {
      ...request,
      emoji: '🎉',
    });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().code).toBe(ErrorCode.conflict);
    const sameEmojiNewId = dataOf<{ id: string }>(
      await as(server, bob).post(`/api/posts/${post.id}/reactions`, { clientId: newId(), emoji: '👍' }),
    );
    expect(sameEmojiNewId.id).toBe(first.id);
    dataOf(
      await as(server, alice).post(`/api/posts/${post.id}/reactions`, { clientId: newId(), emoji: '👍' }),
    );
    dataOf(
      await as(server, alice).post(`/api/posts/${post.id}/reactions`, { clientId: newId(), emoji: '❤️' }),
    );
    const reactions = dataOf<{ reactions: Summary[] }>(
      await as(server, alice).get(`/api/posts/${post.id}`),
    ).reactions;
    expect(reactions.map((r) => [r.emoji, r.count])).toEqual([
      ['👍', 2],
      ['❤️', 1],
    ]);
    expect(reactions[0]!.people.map((p) => p.id)).toEqual([bob.user.id, alice.user.id]);
    expect(dataOf(await as(server, bob).delete(`/api/posts/${post.id}/reactions/${thumbs}`))).toEqual({
      removed: true,
    });
    expect(dataOf(await as(server, bob).delete(`/api/posts/${post.id}/reactions/${thumbs}`))).toEqual({
      removed: false,
    });
    const after = dataOf<{ reactions: Summary[] }>(
      await as(server, alice).get(`/api/posts/${post.id}`),
    ).reactions;
    expect(after.map((r) => [r.emoji, r.count])).toEqual([
      ['👍', 1],
      ['❤️', 1],
    ]);
  });

  it('reacts to comments too', async () => {
    const alice = await signedIn(server);
    const t = await buildTopic(server, alice);
    const post = await buildPost(server, alice, t.id);
    const comment = dataOf<{ id: string }>(
      await as(server, alice).post(`/api/posts/${post.id}/comments`, { clientId: newId(), body: 'reply' }),
    );
    const reaction = dataOf<{ commentId: string }>(
      await as(server, alice).post(`/api/comments/${comment.id}/reactions`, {
        clientId: newId(),
        emoji: '🙏',
      }),
    );
    expect(reaction.commentId).toBe(comment.id);
    const page = dataOf<{ items: { reactions: Summary[] }[] }>(
      await as(server, alice).get(`/api/posts/${post.id}/comments`),
    );
    expect(page.items[0]!.reactions.map((r) => r.emoji)).toEqual(['🙏']);
    expect(
      dataOf<{ reactions: Summary[] }>(await as(server, alice).get(`/api/posts/${post.id}`)).reactions,
    ).toEqual([]);
    const removed = await as(server, alice).delete(
      `/api/comments/${comment.id}/reactions/${encodeURIComponent('🙏')}`,
    );
    expect(dataOf(removed)).toEqual({ removed: true });
  });

  it('refuses reactions in an archived topic (403)', async () => {
    const alice = await signedIn(server);
    const t = await buildTopic(server, alice);
    const post = await buildPost(server, alice, t.id);
    dataOf(await as(server, alice).post(`/api/topics/${t.id}/archive`));
    const res = await as(server, alice).post(`/api/posts/${post.id}/reactions`, {
      clientId: newId(),
      emoji: '👍',
    });
    expect(res.statusCode).toBe(403);
  });
});
