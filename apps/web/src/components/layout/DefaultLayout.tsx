import AccountTree from '@mui/icons-material/AccountTree';
import Home from '@mui/icons-material/Home';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, Outlet } from 'react-router';
import { AnswerQueueProvider } from '../../offline/index.ts';
import { ConnectionIndicator } from '../../realtime/ConnectionIndicator.tsx';
import { useInTeams } from '../../stores/teams.ts';
import { CallEventBanner } from '../CallEventBanner.tsx';
import { SceneLoading } from '../SceneLoading.tsx';
import { AppBarMenuButton } from './AppBarMenuButton.tsx';
import { LanguageSwitch } from './LanguageSwitch.tsx';
import { NotificationBell } from './notifications/NotificationBell.tsx';
import { ShortcutKeys } from './ShortcutKeys.tsx';
import { SkipLink } from './SkipLink.tsx';
import { TeamsPrompt } from './TeamsPrompt.tsx';
import { TeamsThemeSync } from './TeamsThemeSync.tsx';
import { ThemeSwitch } from './ThemeSwitch.tsx';
import { UserMenu } from './UserMenu.tsx';

const navButtonSx = {
  color: 'inherit',
  whiteSpace: 'nowrap',
  minWidth: 0,
  borderRadius: 2,
  px: 1.5,
  '&.active': { bgcolor: 'rgba(255,255,255,0.18)' },
} as const;

// Below `sm` these fold into the Menu button's menu (AppBarMenuButton).
const wideOnly = { display: { xs: 'none', sm: 'flex' } } as const;

/**
 * The default layout: the "Skip to content" link, the app bar (product name, Home, Call tree,
 * language, theme, person; on a phone the navigation, language and theme fold into a Menu), the
 * call-tree event banner until the person answers, and the screen (`main`). In the Teams tab the
 * theme follows Teams'; elsewhere the Teams dialog shows once to people who have not connected Teams.
 */
export function DefaultLayout() {
  const { t } = useTranslation();
  const inTeams = useInTeams();
  return (
    <AnswerQueueProvider>
      <TeamsThemeSync />
      <TeamsPrompt />
      <ShortcutKeys />
      <Box sx={{ minHeight: '100dvh', bgcolor: 'background.default' }}>
        <SkipLink />
        <AppBar position="sticky" color="primary" elevation={1}>
          <Toolbar sx={{ gap: { xs: 0.5, sm: 1 } }}>
            <AppBarMenuButton withTheme={!inTeams} />
            <Typography
              component={Link}
              to="/"
              variant="h6"
              sx={{ color: 'inherit', textDecoration: 'none', fontWeight: 700, mr: { xs: 'auto', sm: 2 } }}
            >
              {t('productName')}
            </Typography>
            <Box component="nav" aria-label={t('nav.label')} sx={{ ...wideOnly, gap: 0.5, flexGrow: 1 }}>
              <Button component={NavLink} to="/" end startIcon={<Home />} sx={navButtonSx}>
                {t('nav.home')}
              </Button>
              <Button component={NavLink} to="/calltree" startIcon={<AccountTree />} sx={navButtonSx}>
                {t('nav.callTree')}
              </Button>
            </Box>
            <ConnectionIndicator />
            <Box sx={{ ...wideOnly, gap: 1, alignItems: 'center' }}>
              <LanguageSwitch />
              {/* In Teams the theme follows Teams'. */}
              {!inTeams && <ThemeSwitch />}
            </Box>
            <NotificationBell />
            <UserMenu />
          </Toolbar>
        </AppBar>
        <Container
          component="main"
          id="main"
          tabIndex={-1}
          maxWidth="md"
          sx={{ py: { xs: 2, sm: 4 }, outline: 'none' }}
        >
          <CallEventBanner />
          <Suspense fallback={<SceneLoading />}>
            <Outlet />
          </Suspense>
        </Container>
      </Box>
    </AnswerQueueProvider>
  );
}
