import Bolt from '@mui/icons-material/Bolt';
import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';

/**
 * "Urgent" on an important post. In the dark scheme the chip takes the darker red: white on the dark
 * scheme's light red is below WCAG's 4.5:1.
 */
export function UrgentChip() {
  const { t } = useTranslation('announcements');
  return (
    <Chip
      size="small"
      color="error"
      icon={<Bolt aria-hidden />}
      label={t('urgent')}
      sx={(theme) => theme.applyStyles('dark', { bgcolor: 'error.dark' })}
    />
  );
}
