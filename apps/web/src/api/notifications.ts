import type {
  MarkNotificationsReadRequest,
  MarkNotificationsReadResult,
  NotificationDelivery,
  NotificationDeliveryList,
  NotificationList,
  UnsubscribeRequest,
  UnsubscribeResult,
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
    /** Administrators: deliveries in a state (dead letters by default), newest first. */
    deliveries: (status: 'dead' | 'pending' = 'dead', cursor?: string) =>
      client.get<NotificationDeliveryList>('/admin/notification-deliveries', { status, cursor }),
    /** Administrators: sends a dead letter again. */
    retryDelivery: (id: string) =>
      client.post<NotificationDelivery>(`/admin/notification-deliveries/${encodeURIComponent(id)}/retry`, {}),
    /** Stops notification e-mails with the signed token of an e-mail's link (no sign-in needed). */
    unsubscribe: (token: string) =>
      client.post<UnsubscribeResult>('/notifications/unsubscribe', { token } satisfies UnsubscribeRequest),
  };
}
