import type {
  NotificationSettingsView,
  PushSubscriptionRequest,
  PushSubscriptionResult,
  UpdateNotificationSettingsRequest,
} from '@btalk/contracts';
import type { ApiClient } from './client.ts';

/** `/api/me/notification-settings` and `/api/me/push-subscriptions`: how notifications reach me. */
export function notificationSettingsApi(client: ApiClient) {
  return {
    /** My settings, with what this server offers (channels, VAPID key, Teams). */
    get: () => client.get<NotificationSettingsView>('/me/notification-settings'),
    /** Changes the parts sent; answers the whole settings. */
    update: (body: UpdateNotificationSettingsRequest) =>
      client.patch<NotificationSettingsView>('/me/notification-settings', body),
    /** Registers this browser's push subscription (`PushSubscription.toJSON()`). */
    subscribePush: (subscription: PushSubscriptionRequest) =>
      client.post<PushSubscriptionResult>('/me/push-subscriptions', subscription),
    /** Forgets this browser's push subscription. */
    unsubscribePush: (endpoint: string) =>
      client.delete<PushSubscriptionResult>('/me/push-subscriptions', undefined, { endpoint }),
  };
}
