import type { Post, Topic } from '@btalk/contracts';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useRef } from 'react';
import type { PostPages } from '../../../api/postCache.ts';
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

/** How many posts a page holds when the reader scrolls up. */
const PAGE_SIZE = 30;

/** A topic's posts, loaded newest first a page at a time, given oldest first for the chat list. */
export function usePosts(topicId: string) {
  const { api } = useServices();
  // The size of the next page: bigger while following a link to an older post.
  const pageSize = useRef(PAGE_SIZE);
  const query = useInfiniteQuery({
    queryKey: queryKeys.posts.list(topicId),
    queryFn: ({ pageParam }) => {
      const limit = pageParam === undefined ? PAGE_SIZE : pageSize.current;
      pageSize.current = PAGE_SIZE;
      return api.posts.list(topicId, pageParam, limit);
    },
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    meta: { silent: true },
    // Pages of a long topic stay as they are: a refetch of every loaded page would be wasted work.
    staleTime: Number.POSITIVE_INFINITY,
  });
  const data = query.data as PostPages | undefined;
  const posts = useMemo(() => {
    const all = (data?.pages ?? []).flatMap((p) => p.items);
    return all.slice().sort((a, b) => a.number - b.number);
  }, [data]);
  const pinned: Post[] = data?.pages[0]?.pinned ?? [];
  const { fetchNextPage } = query;
  /** Loads the next older page, `limit` posts long. */
  const loadOlder = useCallback(
    (limit = PAGE_SIZE) => {
      pageSize.current = limit;
      void fetchNextPage();
    },
    [fetchNextPage],
  );
  return { query, posts, pinned, loadOlder };
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
