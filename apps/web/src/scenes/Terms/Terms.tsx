import type { CurrentTerms } from '@btalk/contracts';
import { ErrorCode } from '@btalk/contracts/constants';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isErrorEnvelope } from '../../api/errors.ts';
import { currentTermsKey, TERMS_GATE_KEY } from '../../api/terms.ts';
import { Markdown } from '../../components/Markdown.tsx';
import { SceneLoading } from '../../components/SceneLoading.tsx';
import { ScenePage } from '../../components/ScenePage.tsx';
import { useServices } from '../../services.tsx';
import { useSignOut } from '../../signin/useSignOut.ts';
import { dialogs } from '../../stores/dialogs.ts';
import { formatDate } from './formatDate.ts';

/**
 * `/terms`: the current terms of use in the person's language, their version and date, and "Accept"
 * and "Sign out"; after accepting, back to the last page. Someone who already accepted sees when.
 */
export default function Terms() {
  const { t, i18n } = useTranslation('terms');
  const { api, session } = useServices();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const signOut = useSignOut();
  const locale = i18n.resolvedLanguage === 'th' ? 'th' : 'en';
  const key = currentTermsKey(locale);
  // Always asked again on arrival: a 4404 may mean a newer version than the one cached.
  const terms = useQuery({ queryKey: key, queryFn: () => api.terms.current(locale), staleTime: 0 });

  const accept = useMutation({
    mutationFn: (version: number) => api.terms.accept({ version, client: 'web' }),
    meta: { silent: true },
    onSuccess: async (acceptance) => {
      const accepted = (old: CurrentTerms | undefined) =>
        old && { ...old, acceptedAt: acceptance.acceptedAt, abilities: { ...old.abilities, accept: false } };
      queryClient.setQueryData<CurrentTerms>(key, accepted);
      // The session gate must not send the person straight back here.
      queryClient.setQueryData<CurrentTerms>(TERMS_GATE_KEY, accepted);
      // Screens refused with 4404 can load now; the other language's copy is out of date as well.
      void queryClient.invalidateQueries();
      await navigate(session.getState().last_page, { replace: true });
    },
    onError: async (error) => {
      if (isErrorEnvelope(error) && error.code === ErrorCode.termsOutdated) {
        dialogs.showSnack(t('outdated'));
        await terms.refetch();
        return;
      }
      dialogs.showError(error);
    },
  });

  if (terms.isPending) {
    return (
      <ScenePage title={t('title')}>
        <SceneLoading />
      </ScenePage>
    );
  }
  if (terms.isError) {
    return (
      <ScenePage title={t('title')}>
        <Alert severity="error" sx={{ mb: 2 }}>
          {t('loadFailed')}
        </Alert>
        <Button variant="contained" onClick={() => void terms.refetch()}>
          {t('retry')}
        </Button>
      </ScenePage>
    );
  }

  const current = terms.data;
  return (
    <ScenePage title={t('title')}>
      <Typography variant="h5" component="h2" sx={{ fontWeight: 700, mb: 0.5 }}>
        {current.text.title}
      </Typography>
      <Typography color="text.secondary" variant="body2">
        {t('version', { version: current.version, date: formatDate(current.publishedAt, locale) })}
      </Typography>
      {current.acceptedAt && (
        <Alert severity="success" sx={{ mt: 2 }}>
          {t('acceptedOn', { date: formatDate(current.acceptedAt, locale) })}
        </Alert>
      )}
      <Divider sx={{ my: 2 }} />
      <Markdown text={current.text.body} variant="document" />
      {!current.acceptedAt && (
        <>
          <Divider sx={{ my: 2 }} />
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            {t('acceptPrompt')}
          </Typography>
          <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
            <Button
              variant="contained"
              size="large"
              disabled={accept.isPending}
              onClick={() => accept.mutate(current.version)}
            >
              {t('accept')}
            </Button>
            <Button variant="outlined" size="large" onClick={() => void signOut()}>
              {t('signOut')}
            </Button>
          </Box>
        </>
      )}
    </ScenePage>
  );
}
