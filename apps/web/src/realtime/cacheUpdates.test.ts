import type { Comment, Notification, NotificationList, Topic, TopicPage } from '@btalk/contracts';
import { type InfiniteData, QueryClient } from '@tanstack/react-query';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CommentPages, PostPages } from '../api/postCache.ts';
import { callTreeKeys, notificationKeys, queryKeys } from '../api/queryKeys.ts';
import { anong, asPost, postBase as base, boon, eventOf as event } from '../test/posts.ts';
import { applyEvent, loadAnnouncementCache } from './cacheUpdates.ts';

// The announcements' cache helpers load on first use in the app; here they are there from the start.
beforeAll(async () => {
  await loadAnnouncementCache();
});

const me = { userId: boon.id };

function setup() {
  const qc = new QueryClient();
  const topic = {
    id: 't1',
    postCount: 1,
    lastReadNumber: 1,
    unreadCount: 0,
    archivedAt: null,
    lastActivityAt: '2026-01-01T00:00:00.000Z',
    abilities: {
      edit: false,
      archive: false,
      manageMembers: false,
      post: true,
      pin: false,
      leave: false,
      follow: true,
      // The server's answers for this reader, on purpose not what any rule of thumb on the client
      // would work out from the topic's own abilities: the client must take them as they are.
      ownPost: { edit: true, delete: false, pin: false, comment: true, react: false },
      othersPost: { edit: false, delete: true, pin: true, comment: true, react: false },
      ownComment: { edit: true, delete: true, react: false },
      othersComment: { edit: false, delete: true, react: true },
    },
  } as unknown as Topic;
  qc.setQueryData(queryKeys.topics.detail('t1'), topic);
  qc.setQueryData<InfiniteData<TopicPage, string | undefined>>(queryKeys.topics.list('all'), {
    pages: [{ items: [topic], nextCursor: null }],
    pageParams: [undefined],
  });
  qc.setQueryData<PostPages>(queryKeys.posts.list('t1'), {
    pages: [{ items: [asPost(base(1))], pinned: [], nextCursor: null, newerCursor: null }],
    pageParams: [undefined],
  });
  const posts = () => qc.getQueryData<PostPages>(queryKeys.posts.list('t1'))!.pages[0]!.items;
  return { qc, posts, topic: () => qc.getQueryData<Topic>(queryKeys.topics.detail('t1'))! };
}

describe('applyEvent', () => {
  it('adds a new post once with the abilities the server gave for others’ posts, and counts it as unread', () => {
    const { qc, posts, topic } = setup();
    const created = event('post.created', { post: base(2) });
    applyEvent(qc, created, me);
    applyEvent(qc, created, me);
    expect(posts().map((p) => p.number)).toEqual([2, 1]);
    expect(posts()[0]!.abilities).toEqual(topic().abilities.othersPost);
    expect(posts()[0]!.bell).toBe('off');
    expect(topic()).toMatchObject({ postCount: 2, unreadCount: 1 });
    const list = qc.getQueryData<InfiniteData<TopicPage>>(queryKeys.topics.list('all'))!;
    expect(list.pages[0]!.items[0]!.unreadCount).toBe(1);
  });

  it('gives the reader’s own new post the topic’s ownPost abilities, and a deleted one none', () => {
    const { qc, posts, topic } = setup();
    applyEvent(qc, event('post.created', { post: base(2, { author: boon }) }), me);
    expect(posts()[0]!.abilities).toEqual(topic().abilities.ownPost);
    expect(posts()[0]!.bell).toBe('ring');
    applyEvent(qc, event('post.created', { post: base(3, { author: boon, deletedAt: 'z' }) }), me);
    expect(posts()[0]!.abilities).toEqual({
      edit: false,
      delete: false,
      pin: false,
      comment: false,
      react: false,
    });
  });

  it('allows nothing on a post that arrives for a topic whose abilities are not cached', () => {
    const { qc, posts } = setup();
    qc.removeQueries({ queryKey: queryKeys.topics.detail('t1') });
    applyEvent(qc, event('post.created', { post: base(2, { author: boon }) }), me);
    expect(posts()[0]!.abilities).toEqual({
      edit: false,
      delete: false,
      pin: false,
      comment: false,
      react: false,
    });
  });

  it('asks the server again for abilities when the topic is archived or unarchived', () => {
    const { qc, topic } = setup();
    qc.setQueryData<CommentPages>(queryKeys.posts.comments('p1'), {
      pages: [{ items: [], nextCursor: null }],
      pageParams: [undefined],
    });
    applyEvent(qc, event('topic.updated', { topic: { ...topic(), title: 'renamed' } }), me);
    expect(qc.getQueryState(queryKeys.topics.detail('t1'))!.isInvalidated).toBe(false);
    applyEvent(qc, event('topic.updated', { topic: { ...topic(), archivedAt: 'now' } }), me);
    expect(topic().archivedAt).toBe('now');
    expect(qc.getQueryState(queryKeys.topics.detail('t1'))!.isInvalidated).toBe(true);
    expect(qc.getQueryState(queryKeys.posts.list('t1'))!.isInvalidated).toBe(true);
    expect(qc.getQueryState(queryKeys.posts.comments('p1'))!.isInvalidated).toBe(true);
  });

  it('moves a topic between Home and the archive when it is archived or restored, opened here or not', () => {
    const { qc, topic } = setup();
    const lists = () => qc.getQueryState(queryKeys.topics.list('all'))!.isInvalidated;
    qc.setQueryData<InfiniteData<TopicPage, string | undefined>>(queryKeys.topics.archived(''), {
      pages: [{ items: [], nextCursor: null }],
      pageParams: [undefined],
    });
    applyEvent(qc, event('topic.updated', { topic: { ...topic(), title: 'renamed' } }), me);
    expect(lists()).toBe(false);
    applyEvent(qc, event('topic.updated', { topic: { ...topic(), archivedAt: 'now' } }), me);
    expect(lists()).toBe(true);
    expect(qc.getQueryState(queryKeys.topics.archived(''))!.isInvalidated).toBe(true);
    // Restored by its owner elsewhere: this person never opened it, Home lists it again.
    const fresh = new QueryClient();
    fresh.setQueryData(queryKeys.topics.list('mine'), {
      pages: [{ items: [], nextCursor: null }],
      pageParams: [undefined],
    });
    applyEvent(fresh, event('topic.updated', { topic: { ...topic(), archivedAt: null } }), me);
    expect(fresh.getQueryState(queryKeys.topics.list('mine'))!.isInvalidated).toBe(true);
    // A rename of a topic a list holds, archived or not as before: the lists stay.
    const listed = new QueryClient();
    listed.setQueryData(queryKeys.topics.list('all'), {
      pages: [{ items: [{ ...topic(), archivedAt: null }], nextCursor: null }],
      pageParams: [undefined],
    });
    applyEvent(listed, event('topic.updated', { topic: { ...topic(), archivedAt: null, title: 'new' } }), me);
    expect(listed.getQueryState(queryKeys.topics.list('all'))!.isInvalidated).toBe(false);
  });

  it('refreshes an open history when the post is edited again', () => {
    const { qc } = setup();
    qc.setQueryData(queryKeys.posts.revisions('p1'), { items: [] });
    qc.setQueryData(queryKeys.posts.revisions('c1', 'comment'), { items: [] });
    applyEvent(qc, event('post.edited', { post: base(1, { body: 'again', editedAt: 'x' }) }), me);
    expect(qc.getQueryState(queryKeys.posts.revisions('p1'))!.isInvalidated).toBe(true);
    expect(qc.getQueryState(queryKeys.posts.revisions('c1', 'comment'))!.isInvalidated).toBe(false);
  });

  it('edits, deletes and pins in place, keeping what the server said about the reader', () => {
    const { qc, posts } = setup();
    applyEvent(qc, event('post.edited', { post: base(1, { body: 'changed', editedAt: 'x' }) }), me);
    expect(posts()[0]).toMatchObject({ body: 'changed', editedAt: 'x', bell: 'ring' });
    expect(posts()[0]!.abilities.edit).toBe(true);
    applyEvent(qc, event('post.pinned', { topicId: 't1', postId: 'p1', pinnedAt: 'y' }), me);
    expect(qc.getQueryData<PostPages>(queryKeys.posts.list('t1'))!.pages[0]!.pinned.map((p) => p.id)).toEqual(
      ['p1'],
    );
    applyEvent(qc, event('post.deleted', { topicId: 't1', postId: 'p1', deletedAt: 'z' }), me);
    expect(posts()[0]).toMatchObject({ body: '', deletedAt: 'z' });
    expect(posts()[0]!.abilities.react).toBe(false);
  });

  it('adds and removes reactions idempotently', () => {
    const { qc, posts } = setup();
    const target = { topicId: 't1', postId: 'p1', commentId: null, emoji: '👍', person: boon };
    applyEvent(qc, event('reaction.added', target), me);
    applyEvent(qc, event('reaction.added', target), me);
    applyEvent(qc, event('reaction.added', { ...target, person: anong }), me);
    expect(posts()[0]!.reactions).toEqual([{ emoji: '👍', count: 2, people: [boon, anong] }]);
    applyEvent(qc, event('reaction.removed', target), me);
    applyEvent(qc, event('reaction.removed', { ...target, person: anong }), me);
    expect(posts()[0]!.reactions).toEqual([]);
  });

  it('puts comments into open threads and sets the post’s comment count from the event', () => {
    const { qc, posts } = setup();
    qc.setQueryData<CommentPages>(queryKeys.posts.comments('p1'), {
      pages: [{ items: [], nextCursor: null }],
      pageParams: [undefined],
    });
    const comment = {
      id: 'k1',
      clientId: 'ck1',
      postId: 'p1',
      topicId: 't1',
      author: anong,
      body: 'hi',
      mentions: [],
      reactions: [],
      editedAt: null,
      deletedAt: null,
      createdAt: 'now',
    };
    applyEvent(qc, event('comment.created', { comment, commentCount: 1 }), me);
    applyEvent(qc, event('comment.created', { comment, commentCount: 1 }), me);
    const comments = () => qc.getQueryData<CommentPages>(queryKeys.posts.comments('p1'))!.pages[0]!.items;
    expect(comments().map((c: Comment) => c.id)).toEqual(['k1']);
    const topicAbilities = qc.getQueryData<Topic>(queryKeys.topics.detail('t1'))!.abilities;
    expect(comments()[0]!.abilities).toEqual(topicAbilities.othersComment);
    applyEvent(
      qc,
      event('comment.created', { comment: { ...comment, id: 'k2', author: boon }, commentCount: 2 }),
      me,
    );
    expect(comments()[0]!.abilities).toEqual(topicAbilities.ownComment);
    expect(posts()[0]!.commentCount).toBe(2);
    applyEvent(
      qc,
      event('comment.deleted', {
        topicId: 't1',
        postId: 'p1',
        commentId: 'k1',
        deletedAt: 'z',
        commentCount: 1,
      }),
      me,
    );
    expect(comments()[1]).toMatchObject({ body: '', deletedAt: 'z' });
    expect(comments()[1]!.abilities).toEqual({ edit: false, delete: false, react: false });
    expect(posts()[0]!.commentCount).toBe(1);
  });

  it('invalidates the call-tree queries of an event', () => {
    const { qc } = setup();
    qc.setQueryData(callTreeKeys.rollup('e1', {}), { any: 1 });
    qc.setQueryData(callTreeKeys.pending(), []);
    qc.setQueryData(callTreeKeys.rollup('e2', {}), { any: 2 });
    applyEvent(qc, event('callevent.answered', {}, 'callevent:e1'), me);
    expect(qc.getQueryState(callTreeKeys.rollup('e1', {}))!.isInvalidated).toBe(true);
    expect(qc.getQueryState(callTreeKeys.pending())!.isInvalidated).toBe(true);
    expect(qc.getQueryState(callTreeKeys.rollup('e2', {}))!.isInvalidated).toBe(false);
  });
});

describe('applyEvent: the bell’s notification events', () => {
  const note = (id: string, overrides: Partial<Notification> = {}): Notification => ({
    id,
    kind: 'post.mention',
    urgent: false,
    title: 'Anong mentioned you in Safety drills',
    body: 'See the plan',
    data: {
      topicId: 't1',
      topicTitle: 'Safety drills',
      actorId: anong.id,
      actorName: 'Anong',
      postNumber: 3,
    },
    createdAt: '2026-01-01T00:00:00.000Z',
    readAt: null,
    ...overrides,
  });
  const mine = (name: string, payload: unknown) => event(name, payload, `user:${boon.id}`);

  function bell(items: Notification[], unreadCount: number) {
    const qc = new QueryClient();
    qc.setQueryData<NotificationList>(notificationKeys.list(), { items, nextCursor: null, unreadCount });
    return { qc, list: () => qc.getQueryData<NotificationList>(notificationKeys.list())! };
  }

  it('puts a new notification first, once, and counts it as unread', () => {
    const { qc, list } = bell([note('n1', { readAt: 'x' })], 0);
    const created = mine('notification.created', note('n2'));
    applyEvent(qc, created, me);
    applyEvent(qc, created, me);
    expect(list().items.map((n) => n.id)).toEqual(['n2', 'n1']);
    expect(list().unreadCount).toBe(1);
  });

  it('refreshes the call tree for a call-tree notification, not for a topic one', () => {
    const { qc } = bell([], 0);
    qc.setQueryData(callTreeKeys.pending(), []);
    applyEvent(qc, mine('notification.created', note('n1')), me);
    expect(qc.getQueryState(callTreeKeys.pending())!.isInvalidated).toBe(false);
    const started = note('n2', {
      kind: 'calltree.started',
      urgent: true,
      data: { eventId: 'e1', eventTitle: 'Fire' },
    });
    applyEvent(qc, mine('notification.created', started), me);
    expect(qc.getQueryState(callTreeKeys.pending())!.isInvalidated).toBe(true);
  });

  it('takes withdrawn ones away and lowers the count by the unread ones among them', () => {
    const { qc, list } = bell([note('n3'), note('n2'), note('n1', { readAt: 'x' })], 2);
    applyEvent(qc, mine('notification.withdrawn', { ids: ['n2'] }), me);
    expect(list().items.map((n) => n.id)).toEqual(['n3', 'n1']);
    expect(list().unreadCount).toBe(1);
    expect(qc.getQueryState(notificationKeys.list())!.isInvalidated).toBe(false);
    // One the cached page does not hold is in the server's count only: the list is fetched again.
    applyEvent(qc, mine('notification.withdrawn', { ids: ['n9'] }), me);
    expect(list().unreadCount).toBe(1);
    expect(qc.getQueryState(notificationKeys.list())!.isInvalidated).toBe(true);
  });

  it('marks the given ones, or all, read with the server’s count', () => {
    const { qc, list } = bell([note('n3'), note('n2'), note('n1')], 5);
    applyEvent(qc, mine('notification.read', { ids: ['n2'], unreadCount: 4 }), me);
    expect(list().items.map((n) => n.readAt !== null)).toEqual([false, true, false]);
    expect(list().unreadCount).toBe(4);
    applyEvent(qc, mine('notification.read', { ids: null, unreadCount: 0 }), me);
    expect(list().items.every((n) => n.readAt !== null)).toBe(true);
    expect(list().unreadCount).toBe(0);
  });

  it('keeps the topic’s notification level when it changes on another tab', () => {
    const { qc, topic } = setup();
    applyEvent(qc, mine('me.notification_level_changed', { topicId: 't1', level: 'muted' }), me);
    expect(topic().notificationLevel).toBe('muted');
    const list = qc.getQueryData<InfiniteData<TopicPage>>(queryKeys.topics.list('all'))!;
    expect(list.pages[0]!.items[0]!.notificationLevel).toBe('muted');
  });
});
