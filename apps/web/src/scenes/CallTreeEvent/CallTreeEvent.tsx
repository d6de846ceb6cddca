import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import type { RollupFilters as Filters } from '../../api/calltree.ts';
import { callTreeKeys } from '../../api/queryKeys.ts';
import { ME_QUERY_KEY } from '../../components/layout/UserMenu.tsx';
import { SceneLoading } from '../../components/SceneLoading.tsx';
import { ScenePage } from '../../components/ScenePage.tsx';
import { useServices } from '../../services.tsx';
import { useStore } from '../../stores/createStore.ts';
import { AnswerTimes } from './components/AnswerTimes.tsx';
import { BranchTree } from './components/BranchTree.tsx';
import { EventHeader } from './components/EventHeader.tsx';
import { MyAnswer } from './components/MyAnswer.tsx';
import { PeopleList } from './components/PeopleList.tsx';
import { RollupFilters } from './components/RollupFilters.tsx';
import { RollupTotals } from './components/RollupTotals.tsx';

/**
 * How often a running event's roll-up is fetched again anyway. The realtime client keeps the numbers
 * live (it invalidates `callTreeKeys.event(id)` on `callevent.*` messages); this slow poll is only a
 * safety net.
 */
export const ROLLUP_REFETCH_MS = 60_000;

/** A call-tree event (`/calltree/event/:id`): the live roll-up, the viewer's answer, and the managers' actions. */
export default function CallTreeEvent() {
  const { t } = useTranslation('calltree');
  const { id = '' } = useParams();
  const { api, session } = useServices();
  const [filters, setFilters] = useState<Filters>({});
  const signedIn = useStore(session, (s) => s.btalk_token !== null);
  const me = useQuery({ queryKey: ME_QUERY_KEY, queryFn: () => api.me.get(), enabled: signedIn });
  const rollup = useQuery({
    queryKey: callTreeKeys.rollup(id, filters),
    queryFn: () => api.calltree.event(id, filters),
    enabled: signedIn,
    // A missing event is said inline below, with a way back; no error dialog on top of it.
    meta: { silent: true },
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.state === 'running' ? ROLLUP_REFETCH_MS : false),
    refetchOnWindowFocus: true,
  });
  const event = rollup.data;

  if (!event) {
    return (
      <ScenePage title={t('eventTitle')}>
        {!signedIn ? (
          <Typography color="text.secondary">{t('signInFirst')}</Typography>
        ) : rollup.isError ? (
          <Alert
            severity="error"
            action={
              <Button color="inherit" component={RouterLink} to="/calltree">
                {t('backToList')}
              </Button>
            }
          >
            {t('event.loadFailed')}
          </Alert>
        ) : (
          <SceneLoading />
        )}
      </ScenePage>
    );
  }
  const running = event.state === 'running';
  return (
    <ScenePage title={event.title}>
      <EventHeader event={event} />
      {(event.abilities.answer || event.myAnswer) && <MyAnswer event={event} />}
      {event.scope !== 'self' && (
        <>
          <RollupTotals totals={event.scopeTotals} />
          {event.abilities.report && <AnswerTimes eventId={event.id} running={running} />}
          <RollupFilters filters={filters} departments={event.departments} onChange={setFilters} />
          <BranchTree eventId={event.id} branches={event.branches} department={filters.department} />
          <PeopleList
            event={event}
            filters={filters}
            meId={me.data?.id}
            refetchInterval={running ? ROLLUP_REFETCH_MS : false}
          />
        </>
      )}
    </ScenePage>
  );
}
