import { useQuery } from '@tanstack/react-query';
import { announcementKeys } from '../../api/announcementKeys.ts';
import { useServices } from '../../services.tsx';

/**
 * The caller's important posts not acknowledged yet (Home's strip, the topic's strip). The realtime
 * client keeps it live: fetched again on `announcement.marked`, an item dropped on `me.acknowledged`.
 */
export function usePendingAnnouncements() {
  const { api } = useServices();
  return useQuery({
    queryKey: announcementKeys.pending(),
    queryFn: () => api.announcements.pending(),
    // A strip that cannot load stays hidden: the posts themselves still ask.
    meta: { silent: true },
  });
}
