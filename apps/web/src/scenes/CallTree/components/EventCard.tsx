import type { CallEventSummary } from '@btalk/contracts';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** An event in a list: title, kind, tree, when, and its numbers (final once closed). */
export function EventCard({ event }: { event: CallEventSummary }) {
  const { t, i18n } = useTranslation('calltree');
  const { totals } = event;
  const answered = totals.safe + totals.needHelp;
  const percent = totals.total ? Math.round((answered / totals.total) * 100) : 0;
  const when = new Date(event.closedAt ?? event.startedAt).toLocaleString(i18n.language, {
    dateStyle: 'medium',
    timeStyle: 'short',
  });
  return (
    <Card variant="outlined" sx={{ borderRadius: 2 }}>
      <CardActionArea component={Link} to={`/calltree/event/${event.id}`} sx={{ p: 2 }}>
        <Stack direction="row" sx={{ gap: 1, alignItems: 'center', flexWrap: 'wrap', mb: 0.5 }}>
          <Chip
            size="small"
            label={event.kind === 'real' ? t('kind.real') : t('kind.drill')}
            color={event.kind === 'real' ? 'error' : 'warning'}
          />
          <Typography component="h3" sx={{ fontWeight: 700 }}>
            {event.title}
          </Typography>
        </Stack>
        <Typography variant="body2" color="text.secondary">
          {event.treeName} ·{' '}
          {event.state === 'running' ? t('list.startedAt', { at: when }) : t('list.closedAt', { at: when })}
        </Typography>
        <Box sx={{ display: 'flex', gap: 2, mt: 1, flexWrap: 'wrap' }}>
          <Typography variant="body2" sx={{ color: 'success.main', fontWeight: 500 }}>
            {t('status.safe')} {totals.safe}
          </Typography>
          <Typography variant="body2" sx={{ color: 'error.main', fontWeight: 500 }}>
            {t('status.need_help')} {totals.needHelp}
          </Typography>
          <Typography variant="body2" sx={{ color: 'warning.main', fontWeight: 500 }}>
            {t('status.no_answer')} {totals.noAnswer}
          </Typography>
        </Box>
        <LinearProgress
          variant="determinate"
          value={percent}
          aria-label={t('totals.progressLabel')}
          aria-valuetext={t('totals.progress', { answered, total: totals.total, percent })}
          sx={{ mt: 1, height: 6, borderRadius: 3 }}
        />
      </CardActionArea>
    </Card>
  );
}
