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
import { visuallyHidden } from '../visuallyHidden.ts';
import { LanguageSwitch } from './LanguageSwitch.tsx';
import { NotificationBell } from './notifications/NotificationBell.tsx';
import { QuickSwitcherKey } from './QuickSwitcherKey.tsx';
import { TeamsPrompt } from './TeamsPrompt.tsx';
import { TeamsThemeSync } from './TeamsThemeSync.tsx';
import { ThemeSwitch } from './ThemeSwitch.tsx';
import { UserMenu } from './UserMenu.tsx';

const navButtonSx = {
  color: 'inherit',
  whiteSpace: 'nowrap',
  minWidth: 0,
  borderRadius: 2,
  px: { xs: 1, sm: 1.5 },
  '&.active': { bgcolor: 'rgba(255,255,255,0.18)' },
  '& .MuiButton-startIcon': { mr: { xs: 0, sm: 1 } },
} as const;

/** A navigation label that phones keep for screen readers only, to leave room in the app bar. */
function NavLabel({ children }: { children: string }) {
  return (
    <Box component="span" sx={(theme) => ({ [theme.breakpoints.down('sm')]: visuallyHidden })}>
      {children}
    </Box>
  );
}

/**
 * The default layout: the app bar (product name, Home, Call tree, language, theme, person), the
 * call-tree event banner until the person answers, and the screen. In the Teams tab the theme
 * follows Teams'; elsewhere the Teams dialog shows once to people who have not connected Teams.
 */
export function DefaultLayout() {
  const { t } = useTranslation();
  const inTeams = useInTeams();
  return (
    <AnswerQueueProvider>
      <TeamsThemeSync />
      <TeamsPrompt />
      <QuickSwitcherKey />
      <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
        <AppBar position="sticky" color="primary" elevation={1}>
          <Toolbar sx={{ gap: { xs: 0.5, sm: 1 } }}>
            <Typography
              component={Link}
              to="/"
              variant="h6"
              sx={{ color: 'inherit', textDecoration: 'none', fontWeight: 700, mr: { xs: 0.5, sm: 2 } }}
            >
              {t('productName')}
            </Typography>
            <Box component="nav" aria-label={t('nav.label')} sx={{ display: 'flex', gap: 0.5, flexGrow: 1 }}>
              <Button component={NavLink} to="/" end startIcon={<Home />} sx={navButtonSx}>
                <NavLabel>{t('nav.home')}</NavLabel>
              </Button>
              <Button component={NavLink} to="/calltree" startIcon={<AccountTree />} sx={navButtonSx}>
                <NavLabel>{t('nav.callTree')}</NavLabel>
              </Button>
            </Box>
            <ConnectionIndicator />
            <LanguageSwitch />
            {/* In Teams the theme follows Teams'. */}
            {!inTeams && <ThemeSwitch />}
            <NotificationBell />
            <UserMenu />
          </Toolbar>
        </AppBar>
        <Container component="main" maxWidth="md" sx={{ py: { xs: 2, sm: 4 } }}>
          <CallEventBanner />
          <Suspense fallback={<SceneLoading />}>
            <Outlet />
          </Suspense>
        </Container>
      </Box>
    </AnswerQueueProvider>
  );
}
