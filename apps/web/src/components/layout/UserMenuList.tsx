import type { Me } from '@btalk/contracts';
import AdminPanelSettings from '@mui/icons-material/AdminPanelSettings';
import Gavel from '@mui/icons-material/Gavel';
import Login from '@mui/icons-material/Login';
import Logout from '@mui/icons-material/Logout';
import NotificationsNone from '@mui/icons-material/NotificationsNone';
import OutboxOutlined from '@mui/icons-material/OutboxOutlined';
import PeopleOutlined from '@mui/icons-material/PeopleOutlined';
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSignOut } from '../../signin/useSignOut.ts';
import { useInTeams } from '../../stores/teams.ts';
import { PersonAvatar } from './PersonAvatar.tsx';

/** What the person's menu shows, and where it hangs. */
export interface UserMenuListProps {
  /** The account button while the menu is open, otherwise null. */
  anchor: HTMLElement | null;
  onClose: () => void;
  signedIn: boolean;
  /** `GET /api/me`, once it has answered. */
  person: Me | undefined;
}

/**
 * The person's menu itself (UserMenu's button opens it): who is signed in, notification settings,
 * the terms, the administration screens the person may use, Sign out; without a session, Sign in.
 * Its own chunk, loaded on the first open (or when the button is hovered or focused), so that Menu,
 * Popover and Modal stay off the first screen (issue 14).
 */
export default function UserMenuList({ anchor, onClose: close, signedIn, person }: UserMenuListProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const signOut = useSignOut();
  const inTeams = useInTeams();
  const go = (path: string) => () => {
    close();
    void navigate(path);
  };
  return (
    <Menu
      anchorEl={anchor}
      open={anchor !== null}
      onClose={close}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      transformOrigin={{ vertical: 'top', horizontal: 'right' }}
    >
      {signedIn && [
        <MenuItem key="person" disabled sx={{ gap: 1.5, '&.Mui-disabled': { opacity: 1 } }}>
          {person && <PersonAvatar name={person.displayName} size={40} />}
          <ListItemText
            primary={person?.displayName ?? t('userMenu.loading')}
            secondary={
              person ? [person.jobTitle, person.department].filter(Boolean).join(' · ') || person.email : null
            }
          />
        </MenuItem>,
        <Divider key="divider" />,
        <MenuItem key="notification-settings" onClick={go('/settings/notifications')}>
          <ListItemIcon>
            <NotificationsNone fontSize="small" />
          </ListItemIcon>
          {t('userMenu.notificationSettings')}
        </MenuItem>,
        <MenuItem key="terms" onClick={go('/terms')}>
          <ListItemIcon>
            <Gavel fontSize="small" />
          </ListItemIcon>
          {t('userMenu.terms')}
        </MenuItem>,
        person?.abilities.manageTerms && (
          <MenuItem key="terms-admin" onClick={go('/admin/terms')}>
            <ListItemIcon>
              <AdminPanelSettings fontSize="small" />
            </ListItemIcon>
            {t('userMenu.termsAdmin')}
          </MenuItem>
        ),
        person?.abilities.manageDeliveries && (
          <MenuItem key="deliveries-admin" onClick={go('/admin/notifications')}>
            <ListItemIcon>
              <OutboxOutlined fontSize="small" />
            </ListItemIcon>
            {t('userMenu.deliveriesAdmin')}
          </MenuItem>
        ),
        person?.abilities.managePeople && (
          <MenuItem key="people-admin" onClick={go('/admin/people')}>
            <ListItemIcon>
              <PeopleOutlined fontSize="small" />
            </ListItemIcon>
            {t('userMenu.peopleAdmin')}
          </MenuItem>
        ),
        person?.abilities.manageUploads && (
          <MenuItem key="uploads-admin" onClick={go('/admin/uploads')}>
            <ListItemIcon>
              <UploadFileOutlined fontSize="small" />
            </ListItemIcon>
            {t('userMenu.uploadsAdmin')}
          </MenuItem>
        ),
        // In the Teams tab the person is signed in by Teams: signing out would only sign them back in.
        !inTeams && (
          <MenuItem
            key="sign-out"
            onClick={() => {
              close();
              void signOut();
            }}
          >
            <ListItemIcon>
              <Logout fontSize="small" />
            </ListItemIcon>
            {t('userMenu.signOut')}
          </MenuItem>
        ),
      ]}
      {!signedIn && !inTeams && (
        <MenuItem onClick={go('/login')}>
          <ListItemIcon>
            <Login fontSize="small" />
          </ListItemIcon>
          {t('userMenu.signIn')}
        </MenuItem>
      )}
    </Menu>
  );
}
