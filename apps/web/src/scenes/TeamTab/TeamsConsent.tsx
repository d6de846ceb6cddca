import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ScenePage } from '../../components/ScenePage.tsx';
import { useServices } from '../../services.tsx';
import { startSignIn } from '../../signin/signIn.ts';
import { TEAMS_CONSENT_FLAG } from './consentFlag.ts';

/**
 * `/teamtab/consent`, the page Teams opens in its consent popup: the directory's own sign-in, where
 * the person consents to what BTalk reads on their behalf. The directory comes back to
 * `/aad/callback`, which then tells Teams that consent succeeded (`authentication.notifySuccess`).
 */
export default function TeamsConsent() {
  const { t } = useTranslation('teamtab');
  const services = useServices();
  const queryClient = useQueryClient();
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    sessionStorage.setItem(TEAMS_CONSENT_FLAG, '1');
    void startSignIn(services, queryClient).then((answer) => {
      if (answer) window.location.assign(answer.url);
      else setFailed(true);
    });
  }, [services, queryClient]);

  return (
    <ScenePage title={t('consentTitle')}>
      {failed ? (
        <Typography color="error">{t('failed')}</Typography>
      ) : (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }} role="status">
          <CircularProgress size={24} />
          <Typography>{t('consentOpening')}</Typography>
        </Box>
      )}
    </ScenePage>
  );
}
