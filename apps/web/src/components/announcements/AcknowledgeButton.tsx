import TaskAlt from '@mui/icons-material/TaskAlt';
import Button, { type ButtonProps } from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { type AcknowledgeTarget, useAcknowledge } from './useAcknowledge.ts';

/**
 * The one-tap "Acknowledge" of an important post. Its accessible name is exactly "Acknowledge" (in
 * the reader's language); the post or strip around it says which post it is.
 */
export function AcknowledgeButton({
  target,
  size = 'small',
  describedBy,
}: {
  target: AcknowledgeTarget;
  size?: ButtonProps['size'];
  /** The id of what names the post (e.g. its excerpt), for screen readers. */
  describedBy?: string;
}) {
  const { t } = useTranslation('announcements');
  const acknowledge = useAcknowledge(target);
  return (
    <Button
      variant="contained"
      color="secondary"
      size={size}
      startIcon={<TaskAlt />}
      aria-describedby={describedBy}
      disabled={acknowledge.isPending}
      onClick={() => acknowledge.mutate()}
      sx={{ flexShrink: 0 }}
    >
      {t('acknowledge')}
    </Button>
  );
}
