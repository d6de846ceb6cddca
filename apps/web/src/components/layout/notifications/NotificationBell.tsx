import type { MarkNotificationsReadRequest } from '@btalk/contracts';
import Notifications from '@mui/icons-material/Notifications';
import Badge from '@mui/material/Badge';
import IconButton from '@mui/material/IconButton';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { markNotificationsRead } from '../../../api/notificationCache.ts';
import { notificationKeys } from '../../../api/queryKeys.ts';
import { useRealtime } from '../../../realtime/context.ts';
import { type ConnectionStatus, createRealtimeStateStore } from '../../../realtime/statusStore.ts';
import { useServices } from '../../../services.tsx';
import { useStore } from '../../../stores/createStore.ts';
import { lazyOnFirstUse } from '../../lazyOnFirstUse.tsx';
import { useUnreadTitle } from '../useUnreadTitle.ts';
import { useNotificationClicks } from './useNotificationClicks.ts';

// The menu loads on the first open; hovering or focusing the bell starts loading it already.
const NotificationPopover = lazyOnFirstUse(() => import('./NotificationPopover.tsx'));

/** How often the bell asks for new notifications while the realtime connection is down. */
const POLL_MS = 60_000;

// Outside the realtime provider (component tests) the bell reads a connection that never starts.
const IDLE = createRealtimeStateStore();

/**
 * Whether the realtime connection brings the bell's events. While it does the bell does not poll;
 * when it comes back after a drop the list is fetched again (events missed beyond the replay).
 */
function useLiveNotifications(enabled: boolean): boolean {
  const realtime = useRealtime();
  const queryClient = useQueryClient();
  const status = useStore(realtime?.client.state ?? IDLE, (s) => s.status);
  const previous = useRef<ConnectionStatus>(status);
  useEffect(() => {
    const was = previous.current;
    previous.current = status;
    if (enabled && status === 'connected' && (was === 'reconnecting' || was === 'offline')) {
      void queryClient.invalidateQueries({ queryKey: notificationKeys.list() });
    }
  }, [status, enabled, queryClient]);
  return status === 'connected';
}

/**
 * The bell in the app bar: my unread notifications as a badge (and in the tab's title), and a menu
 * of the newest ones. Choosing one marks it read and opens what it is about; "Mark all as read"
 * clears the count.
 */
export function NotificationBell() {
  const { t } = useTranslation();
  const { session, api } = useServices();
  const queryClient = useQueryClient();
  const signedIn = useStore(session, (s) => s.btalk_token !== null);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const live = useLiveNotifications(signedIn);
  // Mounted from the first open on, so that the menu also plays its closing transition.
  const [used, setUsed] = useState(false);
  const list = useQuery({
    queryKey: notificationKeys.list(),
    queryFn: () => api.notifications.list(),
    enabled: signedIn,
    refetchInterval: live ? false : POLL_MS,
    // A background check: a failure shows in the menu (with a retry), not as the error dialog.
    meta: { silent: true },
  });
  const markRead = useMutation({
    mutationFn: (body: MarkNotificationsReadRequest) => api.notifications.markRead(body),
    // At once: the person has seen it; the server's count follows.
    onMutate: (body) => markNotificationsRead(queryClient, body.ids ?? null, body.all ? 0 : null),
    onSuccess: (result, body) => markNotificationsRead(queryClient, body.ids ?? null, result.unreadCount),
    onError: () => void queryClient.invalidateQueries({ queryKey: notificationKeys.list() }),
  });
  const unread = signedIn ? (list.data?.unreadCount ?? 0) : 0;
  useUnreadTitle(unread);
  useNotificationClicks();

  if (!signedIn) return null;
  const close = () => setAnchor(null);
  return (
    <>
      <IconButton
        color="inherit"
        aria-label={unread > 0 ? t('notifications.openUnread', { count: unread }) : t('notifications.open')}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        onPointerEnter={NotificationPopover.preload}
        onFocus={NotificationPopover.preload}
        onClick={(event) => {
          setUsed(true);
          setAnchor(event.currentTarget);
        }}
      >
        <Badge badgeContent={unread} color="secondary" max={99}>
          <Notifications />
        </Badge>
      </IconButton>
      {used && (
        <NotificationPopover
          anchor={anchor}
          onClose={close}
          list={list}
          unread={unread}
          onMarkAllRead={() => markRead.mutate({ all: true })}
          onOpen={(n) => {
            close();
            if (n.readAt === null) markRead.mutate({ ids: [n.id] });
          }}
        />
      )}
    </>
  );
}
