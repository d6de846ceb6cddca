import type { Post, PostPage } from '@btalk/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import type { PostPageAt } from '../../../api/posts.ts';
import { type Services, ServicesProvider } from '../../../services.tsx';
import { pageSizeAfter, usePosts } from './useTopicData.ts';

describe('pageSizeAfter', () => {
  it('grows the pages of a reader who keeps scrolling: 30, 60, then 100 at most', () => {
    expect([0, 1, 2, 3, 10].map(pageSizeAfter)).toEqual([30, 60, 100, 100, 100]);
  });
});

/** A page of posts `from`..`to`, newest first as the API answers. */
function pageOf(from: number, to: number, cursors: { older?: string; newer?: string }): PostPage {
  const items = [];
  for (let n = to; n >= from; n--) items.push({ id: `p${n}`, number: n } as unknown as Post);
  return { items, nextCursor: cursors.older ?? null, newerCursor: cursors.newer ?? null, pinned: [] };
}

/** `api.posts.list` answering each request when the test says so. */
function controlledList() {
  const waiting = new Map<string, (page: PostPage) => void>();
  const asked: string[] = [];
  const list = (_topicId: string, at: PostPageAt = {}) => {
    const key = JSON.stringify(at);
    asked.push(key);
    return new Promise<PostPage>((resolve) => waiting.set(key, resolve));
  };
  const answer = async (at: PostPageAt, page: PostPage) => {
    const key = JSON.stringify(at);
    await waitFor(() => expect(waiting.has(key)).toBe(true));
    await act(async () => {
      waiting.get(key)!(page);
      waiting.delete(key);
    });
  };
  return { list, asked, answer };
}

describe('usePosts', () => {
  it('keeps the page it opened when a page the list asked for meanwhile arrives later', async () => {
    const api = controlledList();
    const services = { api: { posts: { list: api.list } } } as unknown as Services;
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>
        <ServicesProvider services={services}>{children}</ServicesProvider>
      </QueryClientProvider>
    );
    const { result } = renderHook(() => usePosts('t1', null), { wrapper });
    await api.answer({}, pageOf(2971, 3000, { older: 'older-2971' }));
    await waitFor(() => expect(result.current.posts).toHaveLength(30));

    // "Jump to the first post": the oldest page, then the list reaches its end and asks for newer posts.
    let toOldest: Promise<PostPage> | undefined;
    act(() => {
      toOldest = result.current.open({ from: 'oldest' });
    });
    await api.answer({ from: 'oldest' }, pageOf(1, 30, { newer: 'newer-30' }));
    await act(async () => {
      await toOldest;
    });
    await waitFor(() => expect(result.current.posts[0]?.number).toBe(1));

    // "Jump to the latest" while the list, still drawing the oldest posts, asks for the next ones.
    let opened: Promise<PostPage> | undefined;
    act(() => {
      opened = result.current.open({});
    });
    await waitFor(() => expect(api.asked.filter((k) => k === '{}')).toHaveLength(2));
    act(() => result.current.loadNewer());
    await waitFor(() => expect(api.asked).toContain(JSON.stringify({ cursor: 'newer-30', limit: 60 })));
    await api.answer({}, pageOf(2971, 3000, { older: 'older-2971' }));
    await act(async () => {
      await opened;
    });
    // The page asked for by the view that was left comes last, and must not bring that view back.
    const late = api.answer({ cursor: 'newer-30', limit: 60 }, pageOf(31, 90, { newer: 'newer-90' }));
    await late.catch(() => {});
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    expect(result.current.posts.map((p) => p.number)).toEqual(Array.from({ length: 30 }, (_, i) => 2971 + i));
  });
});
