import type { NotificationSettingsView, UpdateNotificationSettingsRequest } from '@btalk/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { notificationKeys } from '../../../api/queryKeys.ts';
import { useServices } from '../../../services.tsx';

const SETTINGS_UPDATE = ['notifications', 'settings', 'update'] as const;

/** The settings with a change applied, as the server will answer them (for an instant switch). */
export function withChange(
  view: NotificationSettingsView,
  change: UpdateNotificationSettingsRequest,
): NotificationSettingsView {
  return {
    ...view,
    channels: { ...view.channels, ...change.channels },
    kinds: { ...view.kinds, ...change.kinds },
    quietHours: change.quietHours ?? view.quietHours,
  };
}

/**
 * `PATCH /api/me/notification-settings`: switches move at once and the server's answer replaces
 * the cached settings; a refused change puts them back. Failures are shown by the caller (silent).
 */
export function useSettingsUpdate() {
  const { api } = useServices();
  const queryClient = useQueryClient();
  const key = notificationKeys.settings();
  return useMutation({
    mutationKey: SETTINGS_UPDATE,
    // One after the other, so that answers cannot overtake each other.
    scope: { id: 'notification-settings' },
    mutationFn: (change: UpdateNotificationSettingsRequest) => api.notificationSettings.update(change),
    meta: { silent: true },
    onMutate: async (change) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<NotificationSettingsView>(key);
      if (before) queryClient.setQueryData(key, withChange(before, change));
      return { before };
    },
    onError: (_error, _change, context) => {
      if (context?.before) queryClient.setQueryData(key, context.before);
    },
    onSuccess: (view) => {
      // A later change is still on its way: its answer (with this one in it) will be stored.
      if (queryClient.isMutating({ mutationKey: SETTINGS_UPDATE }) <= 1) queryClient.setQueryData(key, view);
    },
  });
}
