import type { NotificationList } from '@btalk/contracts';
import Notifications from '@mui/icons-material/Notifications';
import Badge from '@mui/material/Badge';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notificationKeys } from '../../../api/queryKeys.ts';
import { useServices } from '../../../services.tsx';
import { useStore } from '../../../stores/createStore.ts';
import { NotificationMenuList } from './NotificationMenuList.tsx';

/** How often the bell asks for new notifications until the realtime client invalidates its key. */
const POLL_MS = 30_000;

/**
 * The bell in the app bar: my unread notifications as a badge, and a menu of the newest ones (each
 * links to its event). Opening the menu marks the listed ones read.
 */
export function NotificationBell() {
  const { t } = useTranslation();
  const { session, api } = useServices();
  const queryClient = useQueryClient();
  const signedIn = useStore(session, (s) => s.btalk_token !== null);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const list = useQuery({
    queryKey: notificationKeys.list(),
    queryFn: () => api.notifications.list(),
    enabled: signedIn,
    refetchInterval: POLL_MS,
  });
  const markRead = useMutation({
    mutationFn: (ids: string[]) => api.notifications.markRead({ ids }),
    onSuccess: (result, ids) => {
      const at = new Date().toISOString();
      queryClient.setQueryData<NotificationList>(notificationKeys.list(), (old) =>
        old
          ? {
              ...old,
              unreadCount: result.unreadCount,
              items: old.items.map((n) =>
                ids.includes(n.id) && n.readAt === null ? { ...n, readAt: at } : n,
              ),
            }
          : old,
      );
      void queryClient.invalidateQueries({ queryKey: notificationKeys.all });
    },
  });

  if (!signedIn) return null;
  const unread = list.data?.unreadCount ?? 0;
  const open = (target: HTMLElement) => {
    setAnchor(target);
    const ids = list.data?.items.filter((n) => n.readAt === null).map((n) => n.id) ?? [];
    if (ids.length > 0) markRead.mutate(ids);
  };

  return (
    <>
      <IconButton
        color="inherit"
        aria-label={unread > 0 ? t('notifications.openUnread', { count: unread }) : t('notifications.open')}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event) => open(event.currentTarget)}
      >
        <Badge badgeContent={unread} color="secondary" max={99}>
          <Notifications />
        </Badge>
      </IconButton>
      <Menu
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{
          paper: { sx: { width: 360, maxWidth: 'calc(100vw - 16px)', maxHeight: '70vh' } },
          list: { 'aria-label': t('notifications.title') },
        }}
      >
        <Typography variant="subtitle2" component="div" sx={{ px: 2, py: 1 }}>
          {t('notifications.title')}
        </Typography>
        <NotificationMenuList query={list} onNavigate={() => setAnchor(null)} />
      </Menu>
    </>
  );
}
