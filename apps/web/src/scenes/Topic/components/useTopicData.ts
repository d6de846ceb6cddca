import type { Post, PostPage, Topic } from '@btalk/contracts';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useRef, useState } from 'react';
import { type PostPages, pinnedPageIndex } from '../../../api/postCache.ts';
import type { PostPageAt } from '../../../api/posts.ts';
import { queryKeys } from '../../../api/queryKeys.ts';
import { ME_QUERY_KEY } from '../../../components/layout/UserMenu.tsx';
import { useServices } from '../../../services.tsx';

/** The signed-in person's id (the same query the user menu uses). */
export function useMyId(): string | undefined {
  const { api } = useServices();
  return useQuery({ queryKey: ME_QUERY_KEY, queryFn: () => api.me.get() }).data?.id;
}

/** One topic as the caller sees it. */
export function useTopic(topicId: string) {
  const { api } = useServices();
  return useQuery({
    queryKey: queryKeys.topics.detail(topicId),
    queryFn: () => api.topics.get(topicId),
    meta: { silent: true },
  });
}

/** No posts, the same array each time (a new one would draw the memoised pinned list again). */
const NO_POSTS: Post[] = [];

/** How many posts the first page holds. */
const PAGE_SIZE = 30;
/** The largest page: pages grow while the reader keeps scrolling, up to this. */
const MAX_PAGE_SIZE = 100;

/**
 * The size of the page loaded after `loaded` pages: 30, 60, then 100 each. Someone who keeps
 * scrolling through a long topic waits for fewer, bigger pages; someone who glances back costs 30.
 */
export function pageSizeAfter(loaded: number): number {
  return Math.min(MAX_PAGE_SIZE, PAGE_SIZE * 2 ** loaded);
}

/**
 * A topic's posts, given oldest first for the chat list. The first page loaded is the newest one, or
 * the page around the post `openAt` (a `#post-<n>` link); older pages load as the reader scrolls up,
 * newer ones as they scroll down (TanStack's next and previous pages: the cache keeps the API's
 * newest-first order). `open` replaces the loaded posts with one page anywhere in the topic, in one
 * request: around a post, the oldest, or the newest.
 */
export function usePosts(topicId: string, openAt: number | null) {
  const { api } = useServices();
  const queryClient = useQueryClient();
  const [initialAt] = useState<PostPageAt>(() => (openAt === null ? {} : { around: openAt }));
  const query = useInfiniteQuery({
    queryKey: queryKeys.posts.list(topicId),
    queryFn: ({ pageParam }) => api.posts.list(topicId, pageParam),
    initialPageParam: initialAt as PostPageAt | undefined,
    getNextPageParam: (last, all): PostPageAt | undefined =>
      last.nextCursor ? { cursor: last.nextCursor, limit: pageSizeAfter(all.length) } : undefined,
    getPreviousPageParam: (first, all): PostPageAt | undefined =>
      first.newerCursor ? { cursor: first.newerCursor, limit: pageSizeAfter(all.length) } : undefined,
    meta: { silent: true },
    // Pages of a long topic stay as they are: a refetch of every loaded page would be wasted work.
    staleTime: Number.POSITIVE_INFINITY,
  });
  const data = query.data as PostPages | undefined;
  const posts = useMemo(() => {
    const byNumber = new Map<number, Post>();
    for (const page of data?.pages ?? []) for (const post of page.items) byNumber.set(post.number, post);
    return [...byNumber.values()].sort((a, b) => a.number - b.number);
  }, [data]);
  const pinned = data?.pages[pinnedPageIndex(data)]?.pinned || NO_POSTS;
  const { fetchNextPage, fetchPreviousPage } = query;
  // A page already on its way is not asked for again, however often the list says it is near its end.
  const loadOlder = useCallback(() => void fetchNextPage({ cancelRefetch: false }), [fetchNextPage]);
  const loadNewer = useCallback(() => void fetchPreviousPage({ cancelRefetch: false }), [fetchPreviousPage]);
  const open = useCallback(
    async (at: PostPageAt): Promise<PostPage> => {
      const key = queryKeys.posts.list(topicId);
      await queryClient.cancelQueries({ queryKey: key });
      const page = await api.posts.list(topicId, at);
      // Pages the list asked for while this one came belong to the view being left: one finishing
      // after the data is replaced would put its old pages back (seen: "Jump to the latest" stayed at
      // the top while the list went on paging down from the oldest posts).
      await queryClient.cancelQueries({ queryKey: key });
      queryClient.setQueryData<PostPages>(key, { pages: [page], pageParams: [at] });
      return page;
    },
    [api, queryClient, topicId],
  );
  return { query, posts, pinned, loadOlder, loadNewer, open };
}

/** Moves the caller's last-read marker forward (once per number) and updates the cached counts. */
export function useMarkRead(topic: Topic | undefined) {
  const { api } = useServices();
  const queryClient = useQueryClient();
  const sent = useRef(0);
  return useCallback(
    (number: number) => {
      if (!topic || number <= topic.lastReadNumber || number <= sent.current) return;
      sent.current = number;
      api.topics.markRead(topic.id, number).then(
        (state) => {
          queryClient.setQueryData<Topic>(queryKeys.topics.detail(topic.id), (old) =>
            old ? { ...old, lastReadNumber: state.lastReadNumber, unreadCount: state.unreadCount } : old,
          );
          void queryClient.invalidateQueries({ queryKey: queryKeys.topics.lists() });
        },
        () => {
          // Not worth a dialog: the marker moves again with the next post read.
          sent.current = 0;
        },
      );
    },
    [api, queryClient, topic],
  );
}
