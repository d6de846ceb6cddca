import Check from '@mui/icons-material/Check';
import DarkMode from '@mui/icons-material/DarkMode';
import LightMode from '@mui/icons-material/LightMode';
import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useColorScheme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { currentLanguage, LANGUAGES } from '../../i18n/index.ts';

/** What the folded app bar's menu needs. */
export interface AppBarMenuProps {
  /** The Menu button while the menu is open, otherwise null. */
  anchor: HTMLElement | null;
  onClose: () => void;
  /** Whether the theme switch belongs in it (not in Teams, whose theme is followed). */
  withTheme: boolean;
}

/**
 * The app bar's navigation and less-used buttons on a phone (below `sm`), where they do not fit in
 * the bar: Home, Call tree, the language, the theme. Its own chunk, loaded on the first open.
 */
export default function AppBarMenu({ anchor, onClose, withTheme }: AppBarMenuProps) {
  const { t, i18n } = useTranslation();
  const { pathname } = useLocation();
  const { mode, systemMode, setMode } = useColorScheme();
  const dark = (mode === 'system' ? systemMode : mode) === 'dark';
  const language = currentLanguage();
  const place = (to: string, name: string, current: boolean) => (
    <MenuItem key={to} component={Link} to={to} onClick={onClose} aria-current={current ? 'page' : undefined}>
      {name}
    </MenuItem>
  );
  return (
    <Menu
      anchorEl={anchor}
      open={anchor !== null}
      onClose={onClose}
      slotProps={{ list: { 'aria-label': t('nav.menu') } }}
    >
      {place('/', t('nav.home'), pathname === '/')}
      {place('/calltree', t('nav.callTree'), pathname.startsWith('/calltree'))}
      <Divider />
      {LANGUAGES.map((lng) => (
        <MenuItem
          key={lng}
          lang={lng}
          role="menuitemradio"
          aria-checked={language === lng}
          onClick={() => {
            onClose();
            void i18n.changeLanguage(lng);
          }}
        >
          <ListItemIcon>{language === lng && <Check fontSize="small" />}</ListItemIcon>
          {t(`language.${lng}`)}
        </MenuItem>
      ))}
      {withTheme && <Divider />}
      {withTheme && (
        <MenuItem
          onClick={() => {
            onClose();
            setMode(dark ? 'light' : 'dark');
          }}
        >
          <ListItemIcon>{dark ? <LightMode fontSize="small" /> : <DarkMode fontSize="small" />}</ListItemIcon>
          {dark ? t('theme.toLight') : t('theme.toDark')}
        </MenuItem>
      )}
    </Menu>
  );
}
