import { useMutation, useQueryClient } from '@tanstack/react-query';
import { setAcknowledged } from '../../api/announcementCache.ts';
import { useServices } from '../../services.tsx';

// Apart from `usePendingAnnouncements` (Home's first screen asks for the list): pressing Acknowledge,
// and the cache helpers it brings, load with the strip's list or the post that shows the button.

/** What acknowledging needs: the post and its topic (to update the cached post). */
export interface AcknowledgeTarget {
  postId: string;
  topicId: string;
}

/** Acknowledges one important post; the answer updates the cached post and the pending lists. */
export function useAcknowledge({ postId, topicId }: AcknowledgeTarget) {
  const { api } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.announcements.acknowledge(postId),
    onSuccess: (result) =>
      setAcknowledged(queryClient, topicId, postId, result.acknowledgedAt, result.totals),
  });
}
