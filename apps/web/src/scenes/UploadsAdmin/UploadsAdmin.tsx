import Alert from '@mui/material/Alert';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ME_QUERY_KEY } from '../../api/me.ts';
import { uploadSettingsKeys } from '../../api/queryKeys.ts';
import { SceneLoading } from '../../components/SceneLoading.tsx';
import { ScenePage } from '../../components/ScenePage.tsx';
import { useServices } from '../../services.tsx';
import { RefusedTypesForm } from './components/RefusedTypesForm.tsx';

/**
 * `/admin/uploads` (administrators): which file types uploads refuse, by name and by content. The
 * list starts as the server's default (executables and scripts) and is saved whole.
 */
export default function UploadsAdmin() {
  const { t } = useTranslation('uploadsAdmin');
  const { api } = useServices();
  const me = useQuery({ queryKey: ME_QUERY_KEY, queryFn: () => api.me.get() });
  const isAdmin = me.data?.abilities.manageUploads === true;
  const refused = useQuery({
    queryKey: uploadSettingsKeys.refusedTypes,
    queryFn: () => api.uploadSettings.refusedTypes(),
    enabled: isAdmin,
  });

  let content: ReactNode;
  if (me.isPending || (isAdmin && refused.isPending)) content = <SceneLoading />;
  else if (!isAdmin) content = <Alert severity="warning">{t('adminsOnly')}</Alert>;
  else if (!refused.data) content = <Alert severity="error">{t('loadFailed')}</Alert>;
  else content = <RefusedTypesForm key={refused.data.updatedAt ?? 'default'} current={refused.data} />;
  return <ScenePage title={t('title')}>{content}</ScenePage>;
}
