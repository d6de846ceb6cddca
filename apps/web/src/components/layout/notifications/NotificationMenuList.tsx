import type { Notification, NotificationList } from '@btalk/contracts';
import WarningAmber from '@mui/icons-material/WarningAmber';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import type { UseQueryResult } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import type { ReactElement } from 'react';
import { Link } from 'react-router';
import { fullTime, shortTime } from '../../time.ts';
import { wordNotification } from './wording.ts';

/** What the bell menu's items need. */
export interface NotificationMenuProps {
  query: UseQueryResult<NotificationList>;
  /** A notification was chosen: it is opened (by its link) and should be marked read. */
  onOpen: (notification: Notification) => void;
  t: TFunction;
}

/** Unread ones carry a dot that is read out as "Unread", and a bold title: not colour alone. */
function Marker({ notification: n, t }: { notification: Notification; t: TFunction }) {
  return (
    <Box
      sx={{
        width: 20,
        flexShrink: 0,
        pt: 0.5,
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        gap: 0.5,
      }}
    >
      {n.readAt === null && (
        <Box
          role="img"
          aria-label={t('notifications.unread')}
          sx={{ width: 10, height: 10, mt: 0.5, borderRadius: '50%', bgcolor: 'secondary.main' }}
        />
      )}
      {n.urgent && <WarningAmber fontSize="small" color="warning" titleAccess={t('notifications.urgent')} />}
    </Box>
  );
}

/**
 * The bell menu's items (direct children of its `MenuList`, so that the arrow keys reach each one):
 * loading, error, empty, or the notifications, newest first.
 */
export function notificationMenuItems({ query, onOpen, t }: NotificationMenuProps): ReactElement[] {
  if (query.isPending) {
    return [
      <MenuItem key="loading" disabled sx={{ gap: 1.5 }}>
        <CircularProgress size={18} />
        {t('notifications.loading')}
      </MenuItem>,
    ];
  }
  if (query.isError) {
    return [
      <MenuItem
        key="error"
        disabled
        sx={{ flexDirection: 'column', alignItems: 'flex-start', '&.Mui-disabled': { opacity: 1 } }}
      >
        <Typography variant="body2" color="error" sx={{ whiteSpace: 'normal' }}>
          {t('notifications.error')}
        </Typography>
        <Button size="small" onClick={() => void query.refetch()}>
          {t('notifications.retry')}
        </Button>
      </MenuItem>,
    ];
  }
  if (query.data.items.length === 0) {
    return [
      <MenuItem key="empty" disabled sx={{ whiteSpace: 'normal' }}>
        {t('notifications.empty')}
      </MenuItem>,
    ];
  }
  return query.data.items.map((n) => {
    const wording = wordNotification(n, t);
    const unread = n.readAt === null;
    const open = () => onOpen(n);
    const link = wording.to ? { component: Link, to: wording.to, onClick: open } : { onClick: open };
    return (
      <MenuItem
        key={n.id}
        {...link}
        divider
        sx={{
          alignItems: 'flex-start',
          whiteSpace: 'normal',
          gap: 1,
          pl: 1,
          ...(unread && { bgcolor: 'action.hover' }),
        }}
      >
        <Marker notification={n} t={t} />
        <ListItemText
          sx={{ my: 0 }}
          primary={wording.title}
          secondary={
            <>
              {wording.body && (
                <Typography
                  component="span"
                  variant="body2"
                  sx={{
                    display: '-webkit-box',
                    WebkitLineClamp: 3,
                    WebkitBoxOrient: 'vertical',
                    overflow: 'hidden',
                    overflowWrap: 'anywhere',
                  }}
                >
                  {wording.body}
                </Typography>
              )}
              <Typography
                component="time"
                variant="caption"
                dateTime={n.createdAt}
                title={fullTime(n.createdAt)}
              >
                {shortTime(n.createdAt)}
              </Typography>
            </>
          }
          slotProps={{ primary: { sx: { fontWeight: unread ? 700 : 400 } } }}
        />
      </MenuItem>
    );
  });
}
