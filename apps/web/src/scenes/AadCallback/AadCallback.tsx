import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { ScenePage } from '../../components/ScenePage.tsx';
import { useServices } from '../../services.tsx';
import {
  completeSignIn,
  openerWaitingForSignIn,
  readCallback,
  SIGNED_IN_MESSAGE,
  type SignedInMessage,
} from '../../signin/signIn.ts';
import { TEAMS_CONSENT_FLAG } from '../TeamTab/consentFlag.ts';

/**
 * `/aad/callback`, where the directory sends the browser back: exchanges the code for a session and
 * returns to the last page. In the sign-in popup it stores the session the same way (the opener
 * shares this origin's storage), tells the opener, and closes.
 */
export default function AadCallback() {
  const { t } = useTranslation('login');
  const services = useServices();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { search } = useLocation();
  const [callback] = useState(() => readCallback(search));
  const [failure, setFailure] = useState<'otherBrowser' | 'failed' | null>(null);

  useEffect(() => {
    if (callback.kind !== 'code') return;
    let current = true;
    void completeSignIn(services, queryClient, callback.request).then((completed) => {
      if (!current) return;
      if ('failure' in completed) {
        setFailure(completed.failure);
        return;
      }
      if (sessionStorage.getItem(TEAMS_CONSENT_FLAG)) {
        // The Teams consent popup: the person consented while signing in; Teams closes the popup.
        sessionStorage.removeItem(TEAMS_CONSENT_FLAG);
        void import('../TeamTab/teamsHost.ts').then((teams) =>
          teams.notifyTeamsConsentDone(services.config.teamsTabTestHosts ?? []),
        );
        return;
      }
      const opener = services.config.directory.signInMode === 'popup' ? openerWaitingForSignIn() : null;
      if (opener) {
        const message: SignedInMessage = { type: SIGNED_IN_MESSAGE, state: callback.request.state };
        opener.postMessage(message, window.location.origin);
        window.close();
        return;
      }
      void navigate(services.session.getState().last_page, { replace: true });
    });
    return () => {
      current = false;
    };
  }, [callback, services, queryClient, navigate]);

  const problem =
    callback.kind === 'error'
      ? t('directoryRefused', { reason: callback.description ?? callback.error })
      : callback.kind === 'missing'
        ? t('noCode')
        : failure === 'otherBrowser'
          ? t('otherBrowser')
          : failure
            ? t('exchangeFailed')
            : null;

  return (
    <ScenePage title={t('callbackTitle')}>
      {problem ? (
        <>
          <Alert severity="error" sx={{ mb: 3 }}>
            {problem}
          </Alert>
          <Button variant="contained" component={Link} to="/login" replace>
            {t('tryAgain')}
          </Button>
        </>
      ) : (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
          <CircularProgress size={24} aria-label={t('working')} />
          <Typography color="text.secondary">{t('callbackText')}</Typography>
        </Box>
      )}
    </ScenePage>
  );
}
