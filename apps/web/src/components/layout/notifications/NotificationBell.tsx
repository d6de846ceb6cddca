import type { MarkNotificationsReadRequest } from '@btalk/contracts';
import DoneAll from '@mui/icons-material/DoneAll';
import Notifications from '@mui/icons-material/Notifications';
import Settings from '@mui/icons-material/Settings';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuList from '@mui/material/MenuList';
import Popover from '@mui/material/Popover';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { markNotificationsRead } from '../../../api/notificationCache.ts';
import { notificationKeys } from '../../../api/queryKeys.ts';
import { useRealtime } from '../../../realtime/context.ts';
import { type ConnectionStatus, createRealtimeStateStore } from '../../../realtime/statusStore.ts';
import { useServices } from '../../../services.tsx';
import { useStore } from '../../../stores/createStore.ts';
import { useUnreadTitle } from '../useUnreadTitle.ts';
import { notificationMenuItems } from './NotificationMenuList.tsx';
import { useNotificationClicks } from './useNotificationClicks.ts';

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
  const headingId = useId();
  const listRef = useRef<HTMLUListElement>(null);
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
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        <Badge badgeContent={unread} color="secondary" max={99}>
          <Notifications />
        </Badge>
      </IconButton>
      <Popover
        anchorEl={anchor}
        open={anchor !== null}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{
          paper: {
            sx: {
              width: 380,
              maxWidth: 'calc(100vw - 16px)',
              maxHeight: '70vh',
              display: 'flex',
              flexDirection: 'column',
            },
          },
        }}
      >
        <Box
          sx={{
            display: 'flex',
            alignItems: 'center',
            gap: 1,
            pl: 2,
            pr: 1,
            py: 0.5,
            borderBottom: 1,
            borderColor: 'divider',
          }}
        >
          <Typography id={headingId} variant="subtitle1" component="h2" sx={{ flexGrow: 1, fontWeight: 700 }}>
            {t('notifications.title')}
          </Typography>
          <Button
            size="small"
            startIcon={<DoneAll />}
            disabled={unread === 0}
            onClick={() => {
              // The button is disabled once nothing is unread: focus moves into the list first, so
              // the keyboard (Escape, arrows) keeps working in the open menu.
              listRef.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
              markRead.mutate({ all: true });
            }}
          >
            {t('notifications.markAllRead')}
          </Button>
          <Tooltip title={t('notifications.settings')}>
            <IconButton
              size="small"
              component={Link}
              to="/settings/notifications"
              aria-label={t('notifications.settings')}
              onClick={close}
            >
              <Settings fontSize="small" />
            </IconButton>
          </Tooltip>
        </Box>
        <MenuList ref={listRef} autoFocusItem aria-labelledby={headingId} sx={{ overflowY: 'auto', py: 0 }}>
          {notificationMenuItems({
            query: list,
            t,
            onOpen: (n) => {
              close();
              if (n.readAt === null) markRead.mutate({ ids: [n.id] });
            },
          })}
        </MenuList>
      </Popover>
    </>
  );
}
