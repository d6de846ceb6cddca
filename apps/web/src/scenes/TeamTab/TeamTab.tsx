import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

import { ScenePage } from '../../components/ScenePage.tsx';

/** The view shown as a tab inside Microsoft Teams (`/teamtab`). */
export default function TeamTab() {
  const { t } = useTranslation('teamtab');

  return (
    <ScenePage title={t('title')}>
      <Typography color="text.secondary">{t('text')}</Typography>
    </ScenePage>
  );
}
