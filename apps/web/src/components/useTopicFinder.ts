import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { queryKeys } from '../api/queryKeys.ts';
import { useServices } from '../services.tsx';
import { useDebounced } from './useDebounced.ts';

/** A topic as a picker offers it. */
export interface FoundTopic {
  id: string;
  title: string;
}

/**
 * Topics to pick by part of their title or description (Thai: any part of a word), from the search
 * index; with no text, my topics by latest activity. Only topics the person may see, conversations
 * included.
 */
export function useTopicFinder(text: string, limit = 8, enabled = true) {
  const { api } = useServices();
  const settled = useDebounced(text.trim(), 200);
  return useQuery({
    queryKey: queryKeys.topicFinder(settled),
    queryFn: async (): Promise<FoundTopic[]> => {
      if (!settled) {
        const page = await api.topics.list({ scope: 'mine', limit });
        return page.items.map((topic) => ({ id: topic.id, title: topic.title }));
      }
      const page = await api.search.search({ q: settled, kind: 'topic' }, undefined, limit);
      return page.items.map((hit) => ({ id: hit.topicId, title: hit.topicTitle }));
    },
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    meta: { silent: true },
  });
}
