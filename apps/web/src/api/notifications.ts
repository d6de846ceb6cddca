import type {
  MarkNotificationsReadRequest,
  MarkNotificationsReadResult,
  NotificationList,
} from '@btalk/contracts';
import type { ApiClient } from './client.ts';

/** `/api/notifications`: my in-app notifications. */
export function notificationsApi(client: ApiClient) {
  return {
    /** My notifications, newest first, with the unread count. */
    list: (limit = 20, cursor?: string) => client.get<NotificationList>('/notifications', { limit, cursor }),
    /** Marks the given notifications (or all with `{ all: true }`) read. */
    markRead: (body: MarkNotificationsReadRequest) =>
      client.post<MarkNotificationsReadResult>('/notifications/read', body),
  };
}
