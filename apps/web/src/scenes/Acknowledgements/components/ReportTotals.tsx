import type { AnnouncementTotals } from '@btalk/contracts';
import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';
import { StatFigure, StatProgress } from '../../../components/StatFigures.tsx';

/** Sent, Seen, Acknowledged and Not yet as figures, and how far acknowledging has come. */
export function ReportTotals({ totals }: { totals: AnnouncementTotals }) {
  const { t } = useTranslation('announcements');
  const percent = totals.audience ? Math.round((totals.acknowledged / totals.audience) * 100) : 0;
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
        <StatFigure label={t('report.sent')} value={totals.audience} color="primary.main" />
        <StatFigure label={t('report.seen')} value={totals.seen} color="info.main" />
        <StatFigure label={t('report.acknowledged')} value={totals.acknowledged} color="success.main" />
        <StatFigure label={t('report.notYet')} value={totals.notYet} color="warning.main" />
      </Box>
      <StatProgress
        percent={percent}
        label={t('report.progressLabel')}
        text={t('progress', { acknowledged: totals.acknowledged, audience: totals.audience })}
        announce
      />
    </Box>
  );
}
