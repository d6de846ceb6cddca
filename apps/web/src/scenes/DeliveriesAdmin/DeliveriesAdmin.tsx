import Alert from '@mui/material/Alert';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ME_QUERY_KEY } from '../../api/me.ts';
import { notificationKeys } from '../../api/queryKeys.ts';
import { SceneLoading } from '../../components/SceneLoading.tsx';
import { ScenePage } from '../../components/ScenePage.tsx';
import { useServices } from '../../services.tsx';
import { DeliveryTable } from './components/DeliveryTable.tsx';

type Status = 'dead' | 'pending';

/**
 * `/admin/notifications` (administrators): the notification outbox. Dead letters (deliveries that
 * failed for good, with the channel's last error) can be sent again; pending ones show what waits.
 */
export default function DeliveriesAdmin() {
  const { t } = useTranslation('deliveriesAdmin');
  const { api } = useServices();
  const [status, setStatus] = useState<Status>('dead');
  const me = useQuery({ queryKey: ME_QUERY_KEY, queryFn: () => api.me.get() });
  const isAdmin = me.data?.abilities.manageDeliveries === true;
  const list = useQuery({
    queryKey: notificationKeys.deliveries(status),
    queryFn: () => api.notifications.deliveries(status),
    enabled: isAdmin,
  });

  let content: ReactNode;
  if (me.isPending || (isAdmin && list.isPending)) content = <SceneLoading />;
  else if (!isAdmin) content = <Alert severity="warning">{t('adminsOnly')}</Alert>;
  else if (!list.data) content = <Alert severity="error">{t('loadFailed')}</Alert>;
  else {
    content = (
      <>
        <Typography sx={{ mb: 2 }}>
          {t('summary', { pending: list.data.pending, dead: list.data.dead })}
        </Typography>
        <Tabs
          value={status}
          onChange={(_, value: Status) => setStatus(value)}
          aria-label={t('statusLabel')}
          sx={{ mb: 2 }}
        >
          <Tab value="dead" label={t('tabs.dead', { count: list.data.dead })} />
          <Tab value="pending" label={t('tabs.pending', { count: list.data.pending })} />
        </Tabs>
        <DeliveryTable status={status} items={list.data.items} />
      </>
    );
  }
  return <ScenePage title={t('title')}>{content}</ScenePage>;
}
