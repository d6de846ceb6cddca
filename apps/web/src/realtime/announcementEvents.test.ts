import type { AnnouncementReport, PendingAnnouncementList, Post, PostBase } from '@btalk/contracts';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { REPORT_REFRESH_DELAY_MS } from '../api/announcementCache.ts';
import { announcementKeys } from '../api/announcementKeys.ts';
import type { PostPages } from '../api/postCache.ts';
import { queryKeys } from '../api/queryKeys.ts';
import {
  announcementOf as announcement,
  asPost,
  postBase as base,
  eventOf as event,
  totalsOf as totals,
} from '../test/posts.ts';
import { applyEvent, loadAnnouncementCache } from './cacheUpdates.ts';

// The announcements' cache helpers load on first use in the app; here they are there from the start.
beforeAll(async () => {
  await loadAnnouncementCache();
});

const me = { userId: 'u-boon' };

const post = (b: PostBase, acknowledgedAt: string | null = null): Post =>
  asPost(b, {
    bell: 'off',
    acknowledgedAt,
    abilities: { edit: false, delete: false, pin: false, comment: true, react: true },
  });

const pendingItem = (postId: string, number: number) => ({
  postId,
  topicId: 't1',
  topicTitle: 'Safety',
  number,
  authorName: 'Anong',
  excerpt: 'Read the new fire exits plan',
  urgent: false,
  dueAt: null,
  markedAt: '2026-11-27T09:00:00.000Z',
});

function setup(first: Post) {
  const qc = new QueryClient();
  qc.setQueryData<PostPages>(queryKeys.posts.list('t1'), {
    pages: [{ items: [first], pinned: [first], nextCursor: null, newerCursor: null }],
    pageParams: [undefined],
  });
  const cached = () => qc.getQueryData<PostPages>(queryKeys.posts.list('t1'))!.pages[0]!;
  return { qc, cached };
}

describe('announcement events in the cache', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('marks a post important everywhere it is cached, and asks the server again who is asked', () => {
    const { qc, cached } = setup(post(base(1)));
    qc.setQueryData(announcementKeys.pending(), { items: [], total: 0 });
    const marked = announcement({ urgent: true, dueAt: '2026-11-28T10:00:00.000Z' });
    applyEvent(qc, event('announcement.marked', { topicId: 't1', postId: 'p1', announcement: marked }), me);
    expect(cached().items[0]!.announcement).toEqual(marked);
    expect(cached().pinned[0]!.announcement).toEqual(marked);
    expect(qc.getQueryState(announcementKeys.pending())!.isInvalidated).toBe(true);
  });

  it('forgets the reader’s acknowledgement when the request is taken back', () => {
    const { qc, cached } = setup(post(base(1, { announcement: announcement() }), '2026-11-27T09:05:00.000Z'));
    applyEvent(qc, event('announcement.marked', { topicId: 't1', postId: 'p1', announcement: null }), me);
    expect(cached().items[0]).toMatchObject({ announcement: null, acknowledgedAt: null });
  });

  it('shows new counts at once, and fetches an open report again once per burst of progress', () => {
    const { qc, cached } = setup(post(base(1, { announcement: announcement() })));
    qc.setQueryData<Post>(queryKeys.posts.detail('p1'), post(base(1, { announcement: announcement() })));
    const report = { postId: 'p1', totals: totals(0), announcement: announcement() } as AnnouncementReport;
    qc.setQueryData(announcementKeys.report('p1', undefined), report);
    qc.setQueryData(announcementKeys.report('p1', 'Ops'), { ...report });
    qc.setQueryData(announcementKeys.people('p1', { status: 'pending' }), { pages: [], pageParams: [] });

    for (const acknowledged of [1, 2, 3])
      applyEvent(
        qc,
        event('announcement.progress', { topicId: 't1', postId: 'p1', totals: totals(acknowledged) }),
        me,
      );
    expect(cached().items[0]!.announcement!.totals).toEqual(totals(3));
    expect(qc.getQueryData<Post>(queryKeys.posts.detail('p1'))!.announcement!.totals).toEqual(totals(3));
    const whole = qc.getQueryData<AnnouncementReport>(announcementKeys.report('p1', undefined))!;
    expect(whole.totals).toEqual(totals(3));
    expect(whole.announcement.totals).toEqual(totals(3));
    // A department's figures are the server's to count.
    expect(qc.getQueryData<AnnouncementReport>(announcementKeys.report('p1', 'Ops'))!.totals).toEqual(
      totals(0),
    );

    const invalidate = vi.spyOn(qc, 'invalidateQueries');
    vi.advanceTimersByTime(REPORT_REFRESH_DELAY_MS - 1);
    expect(invalidate).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(invalidate).toHaveBeenCalledTimes(1);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: announcementKeys.post('p1') });
    expect(qc.getQueryState(announcementKeys.people('p1', { status: 'pending' }))!.isInvalidated).toBe(true);
    expect(qc.getQueryState(announcementKeys.report('p1', 'Ops'))!.isInvalidated).toBe(true);
    // The next burst is fetched again too.
    applyEvent(qc, event('announcement.progress', { topicId: 't1', postId: 'p1', totals: totals(4) }), me);
    vi.advanceTimersByTime(REPORT_REFRESH_DELAY_MS);
    expect(invalidate).toHaveBeenCalledTimes(2);
  });

  it('marks the reader’s acknowledgement from another tab and drops it from the pending list, once', () => {
    const { qc, cached } = setup(post(base(1, { announcement: announcement() })));
    qc.setQueryData<PendingAnnouncementList>(announcementKeys.pending(), {
      items: [pendingItem('p1', 1), pendingItem('p7', 7)],
      total: 5,
    });
    const acknowledged = event(
      'me.acknowledged',
      { topicId: 't1', postId: 'p1', acknowledgedAt: '2026-11-27T09:10:00.000Z' },
      'user:u-boon',
    );
    applyEvent(qc, acknowledged, me);
    applyEvent(qc, acknowledged, me);
    expect(cached().items[0]!.acknowledgedAt).toBe('2026-11-27T09:10:00.000Z');
    expect(cached().pinned[0]!.acknowledgedAt).toBe('2026-11-27T09:10:00.000Z');
    const pending = qc.getQueryData<PendingAnnouncementList>(announcementKeys.pending())!;
    expect(pending.items.map((i) => i.postId)).toEqual(['p7']);
    expect(pending.total).toBe(4);
  });

  it('drops a deleted important post from the pending list', () => {
    const { qc } = setup(post(base(1, { announcement: announcement() })));
    qc.setQueryData<PendingAnnouncementList>(announcementKeys.pending(), {
      items: [pendingItem('p1', 1)],
      total: 1,
    });
    applyEvent(qc, event('post.deleted', { topicId: 't1', postId: 'p1', deletedAt: 'x' }), me);
    expect(qc.getQueryData<PendingAnnouncementList>(announcementKeys.pending())).toEqual({
      items: [],
      total: 0,
    });
  });

  it('gives a new post from the stream no acknowledgement', () => {
    const { qc, cached } = setup(post(base(1)));
    applyEvent(qc, event('post.created', { post: base(2) }), me);
    expect(cached().items[0]).toMatchObject({ number: 2, acknowledgedAt: null, announcement: null });
  });
});
