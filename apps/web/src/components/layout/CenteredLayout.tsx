import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { type ReactNode, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { SceneLoading } from '../SceneLoading.tsx';

/** The frame of the screens outside the default layout (sign-in, not found): the product name and a card. */
export function CenteredLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default', display: 'flex', alignItems: 'center' }}>
      <Container component="main" maxWidth="sm" sx={{ py: 4 }}>
        <Typography
          variant="h5"
          component="p"
          sx={(theme) => ({
            fontWeight: 700,
            mb: 2,
            textAlign: 'center',
            color: 'primary.main',
            ...theme.applyStyles('dark', { color: 'primary.light' }),
          })}
        >
          {t('productName')}
        </Typography>
        <Suspense fallback={<SceneLoading />}>{children}</Suspense>
      </Container>
    </Box>
  );
}
