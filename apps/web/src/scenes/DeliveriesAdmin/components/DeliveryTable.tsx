import type { NotificationDelivery } from '@btalk/contracts';
import Button from '@mui/material/Button';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useServices } from '../../../services.tsx';
import { dialogs } from '../../../stores/dialogs.ts';

/** The outbox's deliveries in one state, with "Send again" on dead letters. */
export function DeliveryTable({
  status,
  items,
}: {
  status: 'dead' | 'pending';
  items: NotificationDelivery[];
}) {
  const { t, i18n } = useTranslation('deliveriesAdmin');
  const { api } = useServices();
  const queryClient = useQueryClient();
  const retry = useMutation({
    mutationFn: (id: string) => api.notifications.retryDelivery(id),
    onSuccess: () => {
      dialogs.showSnack(t('retried'));
      void queryClient.invalidateQueries({ queryKey: ['notifications', 'deliveries'] });
    },
  });
  if (items.length === 0) return <Typography color="text.secondary">{t(`empty.${status}`)}</Typography>;
  const when = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <TableContainer>
      <Table size="small" aria-label={t(`tabs.${status}`, { count: items.length })}>
        <TableHead>
          <TableRow>
            <TableCell>{t('columns.person')}</TableCell>
            <TableCell>{t('columns.channel')}</TableCell>
            <TableCell>{t('columns.notification')}</TableCell>
            <TableCell align="right">{t('columns.attempts')}</TableCell>
            <TableCell>{t('columns.lastError')}</TableCell>
            <TableCell>{t('columns.updatedAt')}</TableCell>
            {status === 'dead' && <TableCell />}
          </TableRow>
        </TableHead>
        <TableBody>
          {items.map((d) => (
            <TableRow key={d.id}>
              <TableCell>
                {d.person.displayName}
                <Typography variant="caption" component="div" color="text.secondary">
                  {d.person.email}
                </Typography>
              </TableCell>
              <TableCell>{t(`channels.${d.channel}`)}</TableCell>
              <TableCell>{d.title}</TableCell>
              <TableCell align="right">{d.attempts}</TableCell>
              <TableCell sx={{ maxWidth: 280, overflowWrap: 'anywhere' }}>{d.lastError ?? ''}</TableCell>
              <TableCell>{when.format(new Date(d.updatedAt))}</TableCell>
              {status === 'dead' && (
                <TableCell>
                  <Button
                    size="small"
                    disabled={retry.isPending}
                    onClick={() => retry.mutate(d.id)}
                    aria-label={t('retryFor', {
                      name: d.person.displayName,
                      channel: t(`channels.${d.channel}`),
                    })}
                  >
                    {t('retry')}
                  </Button>
                </TableCell>
              )}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
