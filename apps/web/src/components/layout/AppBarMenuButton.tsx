import MenuIcon from '@mui/icons-material/Menu';
import IconButton from '@mui/material/IconButton';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyOnFirstUse } from '../lazyOnFirstUse.tsx';
import type { AppBarMenuProps } from './AppBarMenu.tsx';

// The menu's code loads on the first open.
const AppBarMenu = lazyOnFirstUse<AppBarMenuProps>(() =>
  import('./loadLayoutMenus.ts').then((m) => m.loadAppBarMenu()),
);

/**
 * The Menu button of a phone's app bar (shown below `sm` only): the navigation, the language and the
 * theme fold into its menu, so the bar never runs wider than the screen.
 */
export function AppBarMenuButton({ withTheme }: { withTheme: boolean }) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [used, setUsed] = useState(false);
  return (
    <>
      <IconButton
        color="inherit"
        aria-label={t('nav.menu')}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event) => {
          setUsed(true);
          setAnchor(event.currentTarget);
        }}
        sx={{ display: { sm: 'none' } }}
      >
        <MenuIcon />
      </IconButton>
      {used && <AppBarMenu anchor={anchor} onClose={() => setAnchor(null)} withTheme={withTheme} />}
    </>
  );
}
