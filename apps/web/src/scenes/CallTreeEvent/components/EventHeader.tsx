import type { CallEventDetail } from '@btalk/contracts';
import Campaign from '@mui/icons-material/Campaign';
import Download from '@mui/icons-material/Download';
import StopCircle from '@mui/icons-material/StopCircle';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { callTreeKeys } from '../../../api/queryKeys.ts';
import { downloadBlob } from '../../../components/download.ts';
import { useServices } from '../../../services.tsx';
import { dialogs } from '../../../stores/dialogs.ts';

/** The event's kind, state, message and when it ran, with the actions its managers have. */
export function EventHeader({ event }: { event: CallEventDetail }) {
  const { t, i18n } = useTranslation('calltree');
  const { api } = useServices();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: callTreeKeys.all });
  const when = (iso: string) =>
    new Date(iso).toLocaleString(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });

  const remind = useMutation({
    mutationFn: () => api.calltree.remind(event.id),
    onSuccess: (sent) => {
      dialogs.showSnack(t('event.reminded', { count: sent.recipients }));
      void refresh();
    },
  });
  const close = useMutation({
    mutationFn: () => api.calltree.close(event.id),
    onSuccess: () => {
      dialogs.showSnack(t('event.closed'));
      void refresh();
    },
  });
  const exportCsv = useMutation({
    mutationFn: () => api.calltree.reportCsv(event.id),
    onSuccess: (csv) => downloadBlob(csv, `call-event-${event.id}.csv`),
  });

  const askClose = async () => {
    const yes = await dialogs.confirm({
      title: t('event.closeTitle'),
      text: t('event.closeText'),
      confirmLabel: t('event.close'),
    });
    if (yes) close.mutate();
  };

  return (
    <Stack sx={{ gap: 1.5, mb: 3 }}>
      <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap' }}>
        <Chip
          label={event.kind === 'real' ? t('kind.real') : t('kind.drill')}
          color={event.kind === 'real' ? 'error' : 'warning'}
          size="small"
        />
        <Chip
          label={event.state === 'running' ? t('state.running') : t('state.closed')}
          color={event.state === 'running' ? 'primary' : 'default'}
          variant="outlined"
          size="small"
        />
        <Chip label={event.treeName} variant="outlined" size="small" />
      </Stack>
      <Typography sx={{ whiteSpace: 'pre-wrap' }}>{event.message}</Typography>
      <Typography variant="body2" color="text.secondary">
        {event.closedAt
          ? t('event.ranFromTo', { from: when(event.startedAt), to: when(event.closedAt) })
          : t('event.startedAt', { at: when(event.startedAt) })}
        {' · '}
        {t('event.escalation', { count: event.escalationDelayMinutes })}
      </Typography>
      <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap' }}>
        {event.abilities.remind && (
          <Button
            variant="outlined"
            startIcon={<Campaign />}
            disabled={remind.isPending}
            onClick={() => remind.mutate()}
          >
            {t('event.remind')}
          </Button>
        )}
        {event.abilities.report && (
          <Button
            variant="outlined"
            startIcon={<Download />}
            disabled={exportCsv.isPending}
            onClick={() => exportCsv.mutate()}
          >
            {t('event.export')}
          </Button>
        )}
        {event.abilities.close && (
          <Button
            variant="contained"
            color="secondary"
            startIcon={<StopCircle />}
            disabled={close.isPending}
            onClick={askClose}
          >
            {t('event.close')}
          </Button>
        )}
      </Stack>
    </Stack>
  );
}
