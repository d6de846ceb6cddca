import type { Post, PostPage } from '@btalk/contracts';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { asPost, postBase } from '../test/posts.ts';
import { type PostPages, upsertPost } from './postCache.ts';
import { queryKeys } from './queryKeys.ts';

function post(number: number, pinnedAt: string | null = null): Post {
  return asPost(postBase(number, { pinnedAt }));
}

/** A page of posts `from` down to `to`, newest first, as the API answers. */
function page(from: number, to: number, cursors: Partial<PostPage> = {}): PostPage {
  const items = [];
  for (let n = from; n >= to; n--) items.push(post(n));
  return { items, nextCursor: null, newerCursor: null, pinned: [], ...cursors };
}

function cacheWith(data: PostPages) {
  const qc = new QueryClient();
  qc.setQueryData<PostPages>(queryKeys.posts.list('t1'), data);
  return {
    qc,
    pages: () => qc.getQueryData<PostPages>(queryKeys.posts.list('t1'))!.pages,
  };
}

describe('upsertPost', () => {
  it('adds a new post after the newest when the newest page is loaded', () => {
    const { qc, pages } = cacheWith({ pages: [page(30, 1)], pageParams: [{}] });
    upsertPost(qc, post(31));
    expect(
      pages()[0]!
        .items.map((p) => p.number)
        .slice(0, 2),
    ).toEqual([31, 30]);
  });

  it('leaves a new post out while the reader is further back (the page around a linked post)', () => {
    const { qc, pages } = cacheWith({
      pages: [page(1515, 1486, { newerCursor: 'newer', nextCursor: 'older' })],
      pageParams: [{ around: 1500 }],
    });
    upsertPost(qc, post(3001));
    expect(pages()[0]!.items.map((p) => p.number)).not.toContain(3001);
    // A post already loaded still changes in place.
    upsertPost(qc, { ...post(1500), body: 'edited' });
    expect(pages()[0]!.items.find((p) => p.number === 1500)?.body).toBe('edited');
  });

  it('keeps the pinned posts on the page asked without a cursor, wherever newer pages went', () => {
    const { qc, pages } = cacheWith({
      // A newer page came before the page around the link, which carries the pinned posts.
      pages: [page(1545, 1516, { newerCursor: 'newer' }), page(1515, 1486, { newerCursor: 'newer' })],
      pageParams: [{ cursor: 'newer', limit: 30 }, { around: 1500 }],
    });
    upsertPost(qc, post(1490, '2026-01-02T00:00:00.000Z'));
    expect(pages()[1]!.pinned.map((p) => p.number)).toEqual([1490]);
    expect(pages()[0]!.pinned).toEqual([]);
  });
});
