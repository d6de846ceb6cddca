import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { isErrorEnvelope } from '../../../api/errors.ts';

/** A section of the settings screen: a heading, what it is about, its rows, and a failed save. */
export function SettingsSection({
  heading,
  intro,
  error,
  children,
}: {
  heading: string;
  intro?: string;
  /** The last failed save of this section, if any. */
  error?: unknown;
  children: ReactNode;
}) {
  const { t } = useTranslation('notificationSettings');
  const id = useId();
  const message = error ? (isErrorEnvelope(error) ? error.message : t('saveFailed')) : null;
  return (
    <Box component="section" aria-labelledby={id} sx={{ mt: 3 }}>
      <Typography id={id} variant="h6" component="h2" sx={{ fontWeight: 700 }}>
        {heading}
      </Typography>
      {intro && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {intro}
        </Typography>
      )}
      {children}
      {message && (
        <Typography role="alert" variant="body2" color="error" sx={{ mt: 1 }}>
          {message}
        </Typography>
      )}
    </Box>
  );
}
