import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useServices } from '../services.tsx';
import { useStore } from '../stores/createStore.ts';

/** Whether the browser holds a session (screens ask the API only then). */
export function useSignedIn(): boolean {
  const { session } = useServices();
  return useStore(session, (s) => s.btalk_token !== null);
}

/** What a screen that needs a person shows to nobody: a way to sign in. */
export function SignInPrompt({ text }: { text: string }) {
  const { t } = useTranslation();
  return (
    <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
      <Typography color="text.secondary">{text}</Typography>
      <Button component={Link} to="/login" variant="contained">
        {t('userMenu.signIn')}
      </Button>
    </Stack>
  );
}

/** A state line of a list or screen: empty, loading or failed (with a retry). */
export function StateMessage({ text, onRetry }: { text: string; onRetry?: () => void }) {
  const { t } = useTranslation();
  return (
    <Stack spacing={1} sx={{ alignItems: 'flex-start', py: 2 }} role={onRetry ? 'alert' : 'status'}>
      <Typography color="text.secondary">{text}</Typography>
      {onRetry && (
        <Button variant="outlined" size="small" onClick={onRetry}>
          {t('retry')}
        </Button>
      )}
    </Stack>
  );
}
