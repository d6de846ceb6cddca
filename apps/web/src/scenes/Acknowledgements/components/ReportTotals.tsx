import type { AnnouncementTotals } from '@btalk/contracts';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

function Figure({ label, value, color }: { label: string; value: number; color: string }) {
  return (
    <Paper
      component="section"
      aria-label={label}
      variant="outlined"
      sx={{ p: { xs: 1, sm: 2 }, borderRadius: 2, borderTop: 4, borderTopColor: color, minWidth: 0 }}
    >
      <Typography component="output" variant="h4" sx={{ fontWeight: 700, display: 'block' }}>
        {value}
      </Typography>
      <Typography variant="body2" color="text.secondary" noWrap>
        {label}
      </Typography>
    </Paper>
  );
}

/** Sent, Seen, Acknowledged and Not yet as figures, and how far acknowledging has come. */
export function ReportTotals({ totals }: { totals: AnnouncementTotals }) {
  const { t } = useTranslation('announcements');
  const percent = totals.audience ? Math.round((totals.acknowledged / totals.audience) * 100) : 0;
  const progress = t('progress', { acknowledged: totals.acknowledged, audience: totals.audience });
  return (
    <Box component="section" aria-label={t('report.totals')} sx={{ mb: 3 }}>
      <Box
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(4, minmax(0, 1fr))' },
          gap: { xs: 1, sm: 2 },
          mb: 2,
        }}
      >
        <Figure label={t('report.sent')} value={totals.audience} color="primary.main" />
        <Figure label={t('report.seen')} value={totals.seen} color="info.main" />
        <Figure label={t('report.acknowledged')} value={totals.acknowledged} color="success.main" />
        <Figure label={t('report.notYet')} value={totals.notYet} color="warning.main" />
      </Box>
      <LinearProgress
        variant="determinate"
        value={percent}
        aria-label={t('report.progressLabel')}
        aria-valuetext={progress}
        sx={{ height: 10, borderRadius: 5 }}
      />
      <Typography variant="body2" sx={{ mt: 0.5 }} role="status">
        {progress}
      </Typography>
    </Box>
  );
}
