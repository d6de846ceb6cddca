import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { callTreeKeys } from '../../../api/queryKeys.ts';
import { useServices } from '../../../services.tsx';

/** Summary times change slowly: fetched less often than the roll-up. */
const SUMMARY_REFETCH_MS = 15_000;

/** A duration in whole hours, minutes and seconds, largest two parts only (e.g. "1 h 5 min", "42 s"). */
export function formatDuration(seconds: number, t: TFunction): string {
  const total = Math.max(0, Math.round(seconds));
  const parts = [
    { n: Math.floor(total / 3600), key: 'summary.hours' },
    { n: Math.floor((total % 3600) / 60), key: 'summary.minutes' },
    { n: total % 60, key: 'summary.seconds' },
  ];
  const first = parts.findIndex((p) => p.n > 0);
  if (first === -1) return t('summary.seconds', { count: 0 });
  return parts
    .slice(first, first + 2)
    .filter((p) => p.n > 0)
    .map((p) => t(p.key, { count: p.n }))
    .join(' ');
}

/**
 * How fast people answered: time from the start until 50 %, 90 % and 100 % of those targeted had
 * answered (event managers and admins only: the summary API refuses others).
 */
export function AnswerTimes({ eventId, running }: { eventId: string; running: boolean }) {
  const { t } = useTranslation('calltree');
  const { api } = useServices();
  const summary = useQuery({
    queryKey: callTreeKeys.summary(eventId),
    queryFn: () => api.calltree.summary(eventId),
    refetchInterval: running ? SUMMARY_REFETCH_MS : false,
    meta: { silent: true },
  });
  if (summary.isError) {
    return (
      <Alert severity="warning" sx={{ mb: 3 }}>
        {t('summary.loadFailed')}
      </Alert>
    );
  }
  const marks = [
    { percent: 50, seconds: summary.data?.secondsTo50 },
    { percent: 90, seconds: summary.data?.secondsTo90 },
    { percent: 100, seconds: summary.data?.secondsTo100 },
  ];
  return (
    <Box component="section" aria-label={t('summary.label')} sx={{ mb: 3 }}>
      <Typography variant="subtitle2" component="h2" sx={{ mb: 1 }}>
        {t('summary.label')}
      </Typography>
      <Box sx={{ display: 'flex', gap: { xs: 1, sm: 2 } }}>
        {marks.map(({ percent, seconds }) => {
          const label = t('summary.timeTo', { percent });
          return (
            <Paper
              key={percent}
              component="section"
              aria-label={label}
              variant="outlined"
              sx={{ p: { xs: 1, sm: 1.5 }, borderRadius: 2, flex: 1, minWidth: 0 }}
            >
              <Typography variant="body2" color="text.secondary" noWrap>
                {label}
              </Typography>
              {summary.isPending ? (
                <Skeleton width="60%" />
              ) : (
                <Typography component="output" variant="h6" sx={{ display: 'block', fontWeight: 700 }}>
                  {seconds === null || seconds === undefined
                    ? t('summary.notYet')
                    : formatDuration(seconds, t)}
                </Typography>
              )}
            </Paper>
          );
        })}
      </Box>
    </Box>
  );
}
