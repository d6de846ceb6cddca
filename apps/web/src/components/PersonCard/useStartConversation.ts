import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { queryKeys } from '../../api/queryKeys.ts';
import { useServices } from '../../services.tsx';

/**
 * Starts (or gets back) the direct conversation with these people and opens it at `/topics/{id}`;
 * `onOpened` runs first (a card or a dialog closes).
 */
export function useStartConversation(onOpened?: () => void) {
  const { api } = useServices();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: (userIds: string[]) => api.conversations.start(userIds),
    onSuccess: (topic) => {
      queryClient.setQueryData(queryKeys.topics.detail(topic.id), topic);
      void queryClient.invalidateQueries({ queryKey: queryKeys.topics.list('direct') });
      onOpened?.();
      void navigate(`/topics/${encodeURIComponent(topic.id)}`);
    },
  });
}
