import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { ScenePage } from '../../components/ScenePage.tsx';

/** The not-found page, for any path no route matches. */
export default function NotFound() {
  const { t } = useTranslation('notfound');
  const { pathname } = useLocation();
  return (
    <ScenePage title={t('title')}>
      <Typography color="text.secondary" sx={{ mb: 3, wordBreak: 'break-all' }}>
        {t('text', { path: pathname })}
      </Typography>
      <Button variant="contained" component={Link} to="/">
        {t('home')}
      </Button>
    </ScenePage>
  );
}
