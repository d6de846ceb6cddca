import type { NotificationList } from '@btalk/contracts';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { fullTime, shortTime } from '../../time.ts';
import { wordNotification } from './wording.ts';

/** The bell menu's body: loading, error, empty, or the notifications (unread in bold). */
export function NotificationMenuList({
  query,
  onNavigate,
}: {
  query: UseQueryResult<NotificationList>;
  onNavigate: () => void;
}) {
  const { t } = useTranslation();
  if (query.isPending) {
    return (
      <MenuItem disabled sx={{ gap: 1.5 }}>
        <CircularProgress size={18} />
        {t('notifications.loading')}
      </MenuItem>
    );
  }
  if (query.isError) {
    return (
      <MenuItem
        disabled
        sx={{ flexDirection: 'column', alignItems: 'flex-start', '&.Mui-disabled': { opacity: 1 } }}
      >
        <Typography variant="body2" color="error" sx={{ whiteSpace: 'normal' }}>
          {t('notifications.error')}
        </Typography>
        <Button size="small" onClick={() => void query.refetch()}>
          {t('notifications.retry')}
        </Button>
      </MenuItem>
    );
  }
  if (query.data.items.length === 0) {
    return (
      <MenuItem disabled sx={{ whiteSpace: 'normal' }}>
        {t('notifications.empty')}
      </MenuItem>
    );
  }
  return query.data.items.map((n) => {
    const wording = wordNotification(n, t);
    const unread = n.readAt === null;
    const link = wording.to
      ? { component: Link, to: wording.to, onClick: onNavigate }
      : { onClick: onNavigate };
    return (
      <MenuItem key={n.id} {...link} divider sx={{ alignItems: 'flex-start', whiteSpace: 'normal' }}>
        <ListItemText
          primary={wording.title}
          secondary={
            <>
              <Typography component="span" variant="body2" sx={{ display: 'block' }}>
                {wording.body}
              </Typography>
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
