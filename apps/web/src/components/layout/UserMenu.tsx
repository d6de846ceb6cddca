import AccountCircle from '@mui/icons-material/AccountCircle';
import IconButton from '@mui/material/IconButton';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ME_QUERY_KEY } from '../../api/me.ts';
import { useServices } from '../../services.tsx';
import { useStore } from '../../stores/createStore.ts';
import { lazyOnFirstUse } from '../lazyOnFirstUse.tsx';
import { PersonAvatar } from './PersonAvatar.tsx';

export { ME_QUERY_KEY };

// The menu loads on the first open; hovering or focusing the button starts loading it already.
const UserMenuList = lazyOnFirstUse(() => import('./UserMenuList.tsx'));

/**
 * The person's menu: who is signed in (`GET /api/me`, photo from Graph), notification settings, the
 * terms of use, the administration screens the person may use (the server's `abilities` in
 * `/api/me`), and Sign out. Without a session (the Teams tab before it signs in), Sign in.
 */
export function UserMenu() {
  const { t } = useTranslation();
  const { session, api } = useServices();
  const signedIn = useStore(session, (s) => s.btalk_token !== null);
  const me = useQuery({ queryKey: ME_QUERY_KEY, queryFn: () => api.me.get(), enabled: signedIn });
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  // Mounted from the first open on, so that the menu also plays its closing transition.
  const [used, setUsed] = useState(false);

  const person = signedIn ? me.data : undefined;
  return (
    <>
      <IconButton
        color="inherit"
        aria-label={t('userMenu.open')}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        onPointerEnter={UserMenuList.preload}
        onFocus={UserMenuList.preload}
        onClick={(event) => {
          setUsed(true);
          setAnchor(event.currentTarget);
        }}
      >
        {person ? <PersonAvatar name={person.displayName} size={32} outlined /> : <AccountCircle />}
      </IconButton>
      {used && (
        <UserMenuList anchor={anchor} onClose={() => setAnchor(null)} signedIn={signedIn} person={person} />
      )}
    </>
  );
}
