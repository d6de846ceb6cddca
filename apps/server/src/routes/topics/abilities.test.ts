import type { Comment, Post, Topic } from '@btalk/contracts';
import { expect, it } from 'vitest';
import { newId } from '../../ids.ts';
import { describeEachDatabase } from '../../test/db.ts';
import { type TestServer, useTestServer } from '../../test/server.ts';
import { type SignedIn, signedIn } from '../../test/session.ts';
import { as, buildPost, buildTopic, dataOf } from '../../test/topics.ts';

const none = { edit: false, delete: false, pin: false, comment: false, react: false };
const writer = { edit: false, delete: false, pin: false, comment: true, react: true };

/** A topic owned by Alice with Bob as member; a post and a comment by each of them. */
async function scene(server: TestServer, visibility: 'organisation' | 'members') {
  const alice = await signedIn(server, { display_name: 'Alice' });
  const bob = await signedIn(server, { display_name: 'Bob' });
  const admin = await signedIn(server, { display_name: 'Admin', role: 'admin' });
  const stranger = await signedIn(server, { display_name: 'Stranger' });
  const topic = await buildTopic(server, alice, { visibility, memberIds: [bob.user.id] });
  const byAlice = await buildPost(server, alice, topic.id, 'by Alice');
  await buildPost(server, bob, topic.id, 'by Bob');
  for (const [who, body] of [
    [alice, 'comment by Alice'],
    [bob, 'comment by Bob'],
  ] as const) {
    dataOf(await as(server, who).post(`/api/posts/${byAlice.id}/comments`, { clientId: newId(), body }));
  }
  return { alice, bob, admin, stranger, topic, postId: byAlice.id };
}

/** What one person sees: the topic's abilities, and the posts and comments with their own abilities. */
async function seenBy(server: TestServer, who: SignedIn, topicId: string, postId: string) {
  const topic = dataOf<Topic>(await as(server, who).get(`/api/topics/${topicId}`));
  const posts = dataOf<{ items: Post[] }>(await as(server, who).get(`/api/topics/${topicId}/posts`)).items;
  const comments = dataOf<{ items: Comment[] }>(
    await as(server, who).get(`/api/posts/${postId}/comments`),
  ).items;
  return { abilities: topic.abilities, posts, comments };
}

describeEachDatabase('the topic’s abilities for its posts and comments', (kind) => {
  const server = useTestServer(kind);

  it('are, for owner, member, admin and a stranger, what each post and comment answers by its author', async () => {
    const s = await scene(server, 'organisation');
    for (const who of [s.alice, s.bob, s.admin, s.stranger]) {
      const { abilities, posts, comments } = await seenBy(server, who, s.topic.id, s.postId);
      expect(posts).toHaveLength(2);
      for (const post of posts) {
        const own = post.author.id === who.user.id;
        expect(post.abilities).toEqual(own ? abilities.ownPost : abilities.othersPost);
      }
      expect(comments).toHaveLength(2);
      for (const comment of comments) {
        const own = comment.author.id === who.user.id;
        expect(comment.abilities).toEqual(own ? abilities.ownComment : abilities.othersComment);
      }
    }
  });

  it('let the owner moderate, the admin delete, and members and strangers write', async () => {
    const s = await scene(server, 'organisation');
    const of = async (who: SignedIn) => (await seenBy(server, who, s.topic.id, s.postId)).abilities;
    expect(await of(s.alice)).toMatchObject({
      ownPost: { edit: true, delete: true, pin: true, comment: true, react: true },
      othersPost: { edit: false, delete: true, pin: true, comment: true, react: true },
      ownComment: { edit: true, delete: true, react: true },
      othersComment: { edit: false, delete: true, react: true },
    });
    expect(await of(s.bob)).toMatchObject({
      ownPost: { ...writer, edit: true, delete: true },
      othersPost: writer,
      ownComment: { edit: true, delete: true, react: true },
      othersComment: { edit: false, delete: false, react: true },
    });
    expect(await of(s.admin)).toMatchObject({
      ownPost: { ...writer, edit: true, delete: true },
      othersPost: { ...writer, delete: true },
      ownComment: { edit: true, delete: true, react: true },
      othersComment: { edit: false, delete: true, react: true },
    });
    // Someone who is not a member of an organisation-wide topic writes in it, but moderates nothing.
    expect(await of(s.stranger)).toMatchObject({ othersPost: writer });
  });

  it('are not given to strangers of a members-only topic, which stays hidden', async () => {
    const s = await scene(server, 'members');
    const res = await as(server, s.stranger).get(`/api/topics/${s.topic.id}`);
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('ownPost');
  });

  it('allow nothing once the topic is archived, to owner, member and admin alike', async () => {
    const s = await scene(server, 'organisation');
    dataOf(await as(server, s.alice).post(`/api/topics/${s.topic.id}/archive`));
    for (const who of [s.alice, s.bob, s.admin]) {
      const { abilities, posts } = await seenBy(server, who, s.topic.id, s.postId);
      expect(abilities).toMatchObject({
        ownPost: none,
        othersPost: none,
        ownComment: { edit: false, delete: false, react: false },
        othersComment: { edit: false, delete: false, react: false },
      });
      for (const post of posts) expect(post.abilities).toEqual(none);
    }
  });

  it('are the same in the list of topics as in the topic itself', async () => {
    const s = await scene(server, 'organisation');
    const detail = dataOf<Topic>(await as(server, s.bob).get(`/api/topics/${s.topic.id}`));
    const list = dataOf<{ items: Topic[] }>(await as(server, s.bob).get('/api/topics?scope=mine'));
    expect(list.items.find((t) => t.id === s.topic.id)?.abilities).toEqual(detail.abilities);
  });
});
