import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ME_QUERY_KEY } from '../../api/me.ts';
import { TERMS_VERSIONS_KEY } from '../../api/terms.ts';
import { SceneLoading } from '../../components/SceneLoading.tsx';
import { ScenePage } from '../../components/ScenePage.tsx';
import { useServices } from '../../services.tsx';
import { PublishForm } from './components/PublishForm.tsx';
import { VersionList } from './components/VersionList.tsx';

/**
 * `/admin/terms` (administrators): write and preview a new version of the terms in Thai and English,
 * publish it after a confirmation, and see how many people accepted each version.
 */
export default function TermsAdmin() {
  const { t } = useTranslation('termsAdmin');
  const { api } = useServices();
  const me = useQuery({ queryKey: ME_QUERY_KEY, queryFn: () => api.me.get() });
  const isAdmin = me.data?.abilities.manageTerms === true;
  const versions = useQuery({
    queryKey: TERMS_VERSIONS_KEY,
    queryFn: () => api.terms.versions(),
    enabled: isAdmin,
  });

  let content: ReactNode;
  if (me.isPending || (isAdmin && versions.isPending)) {
    content = <SceneLoading />;
  } else if (!isAdmin) {
    content = <Alert severity="warning">{t('adminsOnly')}</Alert>;
  } else if (versions.isError || !versions.data) {
    content = (
      <>
        <Alert severity="error" sx={{ mb: 2 }}>
          {t('loadFailed')}
        </Alert>
        <Button variant="contained" onClick={() => void versions.refetch()}>
          {t('retry')}
        </Button>
      </>
    );
  } else {
    const newest = versions.data.items[0];
    content = (
      <>
        <Typography variant="h6" component="h2" sx={{ fontWeight: 700, mb: 1 }}>
          {t('versionsHeading')}
        </Typography>
        <VersionList list={versions.data} />
        <Typography variant="h6" component="h2" sx={{ fontWeight: 700, mt: 4, mb: 1 }}>
          {t('newHeading', { version: (newest?.version ?? 0) + 1 })}
        </Typography>
        <PublishForm
          key={newest?.version ?? 0}
          nextVersion={(newest?.version ?? 0) + 1}
          startFrom={newest?.texts ?? []}
        />
      </>
    );
  }

  return <ScenePage title={t('title')}>{content}</ScenePage>;
}
