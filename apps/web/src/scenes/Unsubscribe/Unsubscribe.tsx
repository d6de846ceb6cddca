import { ErrorCode } from '@btalk/contracts/constants';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { isErrorEnvelope } from '../../api/errors.ts';
import { ScenePage } from '../../components/ScenePage.tsx';
import { useServices } from '../../services.tsx';

/** The sentence that tells what went wrong, by the kind of failure. */
function failureKey(error: unknown): 'invalidLink' | 'tooMany' | 'failed' {
  if (isErrorEnvelope(error) && error.code === ErrorCode.validation) return 'invalidLink';
  if (isErrorEnvelope(error) && error.code === ErrorCode.rateLimited) return 'tooMany';
  return 'failed';
}

/**
 * `/unsubscribe?token=…`: the page of the "Stop these e-mails" link in notification e-mails. Opening
 * it changes nothing (mail scanners open links); the button stops the e-mails, without signing in.
 */
export default function Unsubscribe() {
  const { t } = useTranslation('unsubscribe');
  const { api } = useServices();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const unsubscribe = useMutation({
    mutationFn: () => api.notifications.unsubscribe(token),
    // The page says what went wrong itself, in a sentence.
    meta: { silent: true },
  });

  if (unsubscribe.isSuccess) {
    return (
      <ScenePage title={t('doneTitle')}>
        <Alert severity="success" sx={{ mb: 2 }}>
          {t('done', { email: unsubscribe.data.email })}
        </Alert>
        <Typography color="text.secondary">
          {t('turnBackOn')}{' '}
          <Link component={RouterLink} to="/settings/notifications">
            {t('settings')}
          </Link>
        </Typography>
      </ScenePage>
    );
  }

  return (
    <ScenePage title={t('title')}>
      {!token ? (
        <Alert severity="error">{t('noToken')}</Alert>
      ) : (
        <>
          <Typography color="text.secondary" gutterBottom>
            {t('text')}
          </Typography>
          {unsubscribe.isError && (
            <Alert severity="error" sx={{ my: 2 }}>
              {t(failureKey(unsubscribe.error))}
            </Alert>
          )}
          <Box sx={{ mt: 3 }}>
            <Button
              variant="contained"
              size="large"
              onClick={() => unsubscribe.mutate()}
              loading={unsubscribe.isPending}
            >
              {t('unsubscribe')}
            </Button>
          </Box>
        </>
      )}
    </ScenePage>
  );
}
