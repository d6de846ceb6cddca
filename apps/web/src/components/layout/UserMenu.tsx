import AccountCircle from '@mui/icons-material/AccountCircle';
import AdminPanelSettings from '@mui/icons-material/AdminPanelSettings';
import Gavel from '@mui/icons-material/Gavel';
import Login from '@mui/icons-material/Login';
import Logout from '@mui/icons-material/Logout';
import NotificationsNone from '@mui/icons-material/NotificationsNone';
import OutboxOutlined from '@mui/icons-material/OutboxOutlined';
import PeopleOutlined from '@mui/icons-material/PeopleOutlined';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ME_QUERY_KEY } from '../../api/me.ts';
import { useServices } from '../../services.tsx';
import { useSignOut } from '../../signin/useSignOut.ts';
import { useStore } from '../../stores/createStore.ts';
import { useInTeams } from '../../stores/teams.ts';
import { PersonAvatar } from './PersonAvatar.tsx';

export { ME_QUERY_KEY };

/**
 * The person's menu: who is signed in (`GET /api/me`, photo from Graph), notification settings, the
 * terms of use, the administration screens the person may use (the server's `abilities` in
 * `/api/me`), and Sign out. Without a session (the Teams tab before it signs in), Sign in.
 */
export function UserMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { session, api } = useServices();
  const signOut = useSignOut();
  const signedIn = useStore(session, (s) => s.btalk_token !== null);
  const inTeams = useInTeams();
  const me = useQuery({ queryKey: ME_QUERY_KEY, queryFn: () => api.me.get(), enabled: signedIn });
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  const go = (path: string) => () => {
    close();
    void navigate(path);
  };

  const person = signedIn ? me.data : undefined;
  return (
    <>
      <IconButton
        color="inherit"
        aria-label={t('userMenu.open')}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        {person ? <PersonAvatar name={person.displayName} size={32} outlined /> : <AccountCircle />}
      </IconButton>
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
                person
                  ? [person.jobTitle, person.department].filter(Boolean).join(' · ') || person.email
                  : null
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
    </>
  );
}
