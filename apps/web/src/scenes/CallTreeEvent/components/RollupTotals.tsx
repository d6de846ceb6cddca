import type { CallTotals } from '@btalk/contracts';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

function Stat({ label, value, color }: { label: string; value: number; color: string }) {
  return (
    <Paper
      component="section"
      aria-label={label}
      variant="outlined"
      sx={{
        p: { xs: 1.5, sm: 2 },
        borderRadius: 2,
        borderTop: 4,
        borderTopColor: color,
        flex: 1,
        minWidth: 0,
      }}
    >
      <Typography component="output" variant="h4" sx={{ fontWeight: 700, display: 'block', color }}>
        {value}
      </Typography>
      <Typography variant="body2" color="text.secondary" noWrap>
        {label}
      </Typography>
    </Paper>
  );
}

/** Totals by status (Safe, Need help, No answer) and how far answering has come. */
export function RollupTotals({ totals }: { totals: CallTotals }) {
  const { t } = useTranslation('calltree');
  const answered = totals.safe + totals.needHelp;
  const percent = totals.total ? Math.round((answered / totals.total) * 100) : 0;
  const progress = t('totals.progress', { answered, total: totals.total, percent });
  return (
    <Box component="section" aria-label={t('totals.label')} sx={{ mb: 3 }}>
      <Box sx={{ display: 'flex', gap: { xs: 1, sm: 2 }, mb: 2 }}>
        <Stat label={t('status.safe')} value={totals.safe} color="success.main" />
        <Stat label={t('status.need_help')} value={totals.needHelp} color="error.main" />
        <Stat label={t('status.no_answer')} value={totals.noAnswer} color="warning.main" />
      </Box>
      <LinearProgress
        variant="determinate"
        value={percent}
        aria-label={t('totals.progressLabel')}
        aria-valuetext={progress}
        sx={{ height: 10, borderRadius: 5 }}
      />
      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
        {progress}
      </Typography>
    </Box>
  );
}
