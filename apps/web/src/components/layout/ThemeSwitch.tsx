import DarkMode from '@mui/icons-material/DarkMode';
import LightMode from '@mui/icons-material/LightMode';
import IconButton from '@mui/material/IconButton';
import { useColorScheme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';

/** Switches between the light and dark theme; MUI remembers the choice. */
export function ThemeSwitch() {
  const { t } = useTranslation();
  const { mode, systemMode, setMode } = useColorScheme();
  const dark = (mode === 'system' ? systemMode : mode) === 'dark';
  return (
    <IconButton
      color="inherit"
      aria-label={dark ? t('theme.toLight') : t('theme.toDark')}
      onClick={() => setMode(dark ? 'light' : 'dark')}
    >
      {dark ? <LightMode /> : <DarkMode />}
    </IconButton>
  );
}
