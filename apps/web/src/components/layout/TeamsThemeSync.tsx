import { useColorScheme } from '@mui/material/styles';
import { useEffect } from 'react';
import { useStore } from '../../stores/createStore.ts';
import { teamsStore } from '../../stores/teams.ts';

/**
 * In the Teams tab, shows BTalk in Teams' theme: default -> light, dark -> dark, contrast -> the
 * high-contrast scheme; it follows Teams' theme changes. Outside Teams it does nothing.
 */
export function TeamsThemeSync() {
  const theme = useStore(teamsStore, (s) => s.theme);
  const { setMode, setColorScheme } = useColorScheme();
  useEffect(() => {
    if (theme === null) return;
    if (theme === 'default') {
      setColorScheme({ light: 'light' });
      setMode('light');
    } else {
      setColorScheme({ dark: theme === 'contrast' ? 'contrast' : 'dark' });
      setMode('dark');
    }
  }, [theme, setMode, setColorScheme]);
  return null;
}
