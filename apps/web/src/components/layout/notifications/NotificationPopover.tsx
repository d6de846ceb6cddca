import type { Notification, NotificationList } from '@btalk/contracts';
import DoneAll from '@mui/icons-material/DoneAll';
import Settings from '@mui/icons-material/Settings';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuList from '@mui/material/MenuList';
import Popover from '@mui/material/Popover';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { UseQueryResult } from '@tanstack/react-query';
import { useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { notificationMenuItems } from './NotificationMenuList.tsx';

/** What the bell's menu shows, and where it hangs. */
export interface NotificationPopoverProps {
  /** The bell while the menu is open, otherwise null. */
  anchor: HTMLElement | null;
  onClose: () => void;
  /** The bell's list (`GET /api/notifications`). */
  list: UseQueryResult<NotificationList>;
  unread: number;
  /** Marks every notification read. */
  onMarkAllRead: () => void;
  /** A notification was chosen (its link opens it). */
  onOpen: (notification: Notification) => void;
}

/**
 * The bell's menu of the newest notifications, with "Mark all as read" and a link to the settings.
 * Its own chunk, loaded on the first open (or when the bell is hovered or focused), so that Popover,
 * Modal, Tooltip and Popper stay off the first screen (issue 14).
 */
export default function NotificationPopover({
  anchor,
  onClose: close,
  list,
  unread,
  onMarkAllRead,
  onOpen,
}: NotificationPopoverProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const listRef = useRef<HTMLUListElement>(null);
  return (
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
            onMarkAllRead();
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
          onOpen,
        })}
      </MenuList>
    </Popover>
  );
}
