import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { ScenePage } from '../../components/ScenePage.tsx';
import { useServices } from '../../services.tsx';
import { POPUP_FEATURES, POPUP_NAME, startSignIn } from '../../signin/signIn.ts';
import { useStore } from '../../stores/createStore.ts';
import { usePopupResult } from './usePopupResult.ts';

// Shown only after signing out or when signing in failed: the sign-in screen that sends the person
// straight on to the directory does not load it (first-load budget, issue 14).
const Alert = lazy(() => import('@mui/material/Alert'));

/** What the sign-in screen is doing. */
type Status = 'starting' | 'leaving' | 'popup' | 'needsClick' | 'failed' | 'signedOut';

/**
 * `/login`: signs in by itself (SPEC.md section 4): clears the tokens, asks for the directory's
 * sign-in URL, then sends the page there or opens it in a popup, as the server is configured. After
 * signing out (remembered by the session store, so a reload waits too) it shows the signed-out screen
 * and waits for "Sign in", which asks the directory to let the person choose the account.
 */
export default function Login() {
  const { t } = useTranslation('login');
  const services = useServices();
  const queryClient = useQueryClient();
  const { config, session } = services;
  const location = useLocation();
  // Read once: the flag clears when the new session is stored, and this screen must not then start
  // another sign-in by itself while it hands over to the page signed in to.
  const [signedOut] = useState(
    () =>
      (location.state as { signedOut?: boolean } | null)?.signedOut === true || session.getState().signed_out,
  );
  const [status, setStatus] = useState<Status>(signedOut ? 'signedOut' : 'starting');
  const lastPage = useStore(session, (s) => s.last_page);
  const popupMode = config.directory.signInMode === 'popup';
  // A newer attempt (or leaving the screen) makes an older one stop before it navigates.
  const attempt = useRef(0);
  const popup = usePopupResult(() => setStatus('needsClick'));

  const signIn = useCallback(
    async (openedPopup?: Window | null) => {
      const mine = ++attempt.current;
      setStatus('starting');
      const aad = await startSignIn(services, queryClient);
      if (mine !== attempt.current) return;
      if (!aad) {
        openedPopup?.close();
        setStatus('failed');
        return;
      }
      if (aad.signInMode === 'redirect') {
        setStatus('leaving');
        window.location.assign(aad.url);
        return;
      }
      // Browsers block popups not opened by a click: then the person clicks "Sign in".
      const opened = openedPopup ?? window.open(aad.url, POPUP_NAME, POPUP_FEATURES);
      if (!opened) {
        setStatus('needsClick');
        return;
      }
      if (openedPopup) openedPopup.location.href = aad.url;
      popup.watch(opened, aad.state);
      setStatus('popup');
    },
    [services, queryClient, popup],
  );

  useEffect(() => {
    if (signedOut) {
      setStatus('signedOut');
      return;
    }
    void signIn();
    return () => {
      attempt.current += 1;
    };
  }, [signedOut, signIn]);

  // The click opens the popup at once (a popup opened later, after a request, would be blocked).
  const onClick = () =>
    void signIn(popupMode ? window.open('about:blank', POPUP_NAME, POPUP_FEATURES) : null);

  const busy = status === 'starting' || status === 'leaving' || status === 'popup';
  return (
    <ScenePage title={signedOut ? t('signedOutTitle') : t('title')}>
      <Suspense fallback={null}>
        {status === 'failed' && (
          <Alert severity="error" sx={{ mb: 2 }}>
            {t('failed')}
          </Alert>
        )}
      </Suspense>
      <Typography color="text.secondary" gutterBottom>
        {status === 'popup'
          ? t('popupOpen')
          : status === 'needsClick'
            ? t('needsClick')
            : signedOut
              ? t('signedOutText')
              : t('text')}
      </Typography>
      {!signedOut && lastPage !== '/' && (
        <Typography sx={{ wordBreak: 'break-all' }}>{t('returnTo', { path: lastPage })}</Typography>
      )}
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mt: 3 }}>
        {busy ? (
          <>
            <CircularProgress size={24} aria-label={t('working')} />
            <Typography color="text.secondary">
              {t(status === 'popup' ? 'waitingPopup' : 'working')}
            </Typography>
          </>
        ) : (
          <Button variant="contained" size="large" onClick={onClick}>
            {t('signIn')}
          </Button>
        )}
      </Box>
    </ScenePage>
  );
}
