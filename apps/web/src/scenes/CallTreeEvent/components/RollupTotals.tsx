import type { CallTotals } from '@btalk/contracts';
import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';
import { StatFigure, StatProgress } from '../../../components/StatFigures.tsx';

/** Totals by status (Safe, Need help, No answer) and how far answering has come. */
export function RollupTotals({ totals }: { totals: CallTotals }) {
  const { t } = useTranslation('calltree');
  const answered = totals.safe + totals.needHelp;
  const percent = totals.total ? Math.round((answered / totals.total) * 100) : 0;
  return (
    <Box component="section" aria-label={t('totals.label')} sx={{ mb: 3 }}>
      <Box sx={{ display: 'flex', gap: { xs: 1, sm: 2 }, mb: 2 }}>
        <StatFigure label={t('status.safe')} value={totals.safe} color="success.main" colouredValue />
        <StatFigure label={t('status.need_help')} value={totals.needHelp} color="error.main" colouredValue />
        <StatFigure
          label={t('status.no_answer')}
          value={totals.noAnswer}
          color="warning.main"
          colouredValue
        />
      </Box>
      <StatProgress
        percent={percent}
        label={t('totals.progressLabel')}
        text={t('totals.progress', { answered, total: totals.total, percent })}
      />
    </Box>
  );
}
