import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { fullTime } from '../../../components/time.ts';

/** "edited" beside a post's or comment's time: its title the time of the edit, a click its history. */
export function EditedButton({ editedAt, onOpen }: { editedAt: string; onOpen: () => void }) {
  const { t } = useTranslation('topic');
  return (
    <Button
      size="small"
      color="inherit"
      aria-label={t('post.editedLabel')}
      title={fullTime(editedAt)}
      onClick={onOpen}
      sx={{ minWidth: 0, p: 0, typography: 'caption', color: 'text.secondary', textTransform: 'none' }}
    >
      {t('post.edited')}
    </Button>
  );
}
