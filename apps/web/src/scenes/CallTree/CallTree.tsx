import Add from '@mui/icons-material/Add';
import Campaign from '@mui/icons-material/Campaign';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callTreeKeys } from '../../api/queryKeys.ts';
import { ME_QUERY_KEY } from '../../components/layout/UserMenu.tsx';
import { SceneLoading } from '../../components/SceneLoading.tsx';
import { ScenePage } from '../../components/ScenePage.tsx';
import { useServices } from '../../services.tsx';
import { useStore } from '../../stores/createStore.ts';
import { EventCard } from './components/EventCard.tsx';
import { NewTreeDialog } from './components/NewTreeDialog.tsx';
import { StartEventDialog } from './components/StartEventDialog.tsx';
import { TreeDialog } from './components/TreeDialog.tsx';
import { TreeList } from './components/TreeList.tsx';

/** How often the running events' numbers are fetched again anyway; realtime events refresh them at once. */
const RUNNING_REFETCH_MS = 60_000;

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = `section-${title.replace(/\W+/g, '-')}`;
  return (
    <Box component="section" aria-labelledby={id} sx={{ mt: 3 }}>
      <Typography id={id} variant="h6" component="h2" gutterBottom>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

/** The call tree (`/calltree`): running events first, my trees, then past events with their final numbers. */
export default function CallTree() {
  const { t } = useTranslation('calltree');
  const { api, session } = useServices();
  const signedIn = useStore(session, (s) => s.btalk_token !== null);
  const [dialog, setDialog] = useState<'start' | 'newTree' | null>(null);
  const [openTree, setOpenTree] = useState<string | null>(null);
  const me = useQuery({ queryKey: ME_QUERY_KEY, queryFn: () => api.me.get(), enabled: signedIn });
  const trees = useQuery({
    queryKey: callTreeKeys.trees(),
    queryFn: () => api.calltree.trees(),
    enabled: signedIn,
  });
  const running = useQuery({
    queryKey: callTreeKeys.eventList('running'),
    queryFn: () => api.calltree.events('running'),
    enabled: signedIn,
    refetchInterval: RUNNING_REFETCH_MS,
    refetchOnWindowFocus: true,
  });
  const past = useInfiniteQuery({
    queryKey: callTreeKeys.eventList('closed'),
    queryFn: ({ pageParam }) => api.calltree.events('closed', pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    enabled: signedIn,
  });

  if (!signedIn) {
    return (
      <ScenePage title={t('title')}>
        <Typography color="text.secondary">{t('signInFirst')}</Typography>
      </ScenePage>
    );
  }
  const starters = (trees.data ?? []).filter((tree) => tree.abilities.startEvent);
  const admin = me.data?.abilities.createCallTrees === true;
  const runningEvents = running.data?.items ?? [];
  const pastEvents = past.data?.pages.flatMap((p) => p.items) ?? [];
  const failed = trees.isError || running.isError || past.isError;

  return (
    <ScenePage title={t('title')}>
      <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap' }}>
        {starters.length > 0 && (
          <Button
            variant="contained"
            color="secondary"
            startIcon={<Campaign />}
            onClick={() => setDialog('start')}
          >
            {t('startEvent')}
          </Button>
        )}
        {admin && (
          <Button variant="outlined" startIcon={<Add />} onClick={() => setDialog('newTree')}>
            {t('tree.new')}
          </Button>
        )}
      </Stack>
      {failed && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {t('list.loadFailed')}
        </Alert>
      )}
      {trees.isLoading || running.isLoading ? (
        <SceneLoading />
      ) : (
        <>
          <Section title={t('list.runningEvents')}>
            {runningEvents.length ? (
              <Stack sx={{ gap: 1.5 }}>
                {runningEvents.map((e) => (
                  <EventCard key={e.id} event={e} />
                ))}
              </Stack>
            ) : (
              <Typography color="text.secondary">{t('list.noRunning')}</Typography>
            )}
          </Section>
          <Section title={t('list.trees')}>
            {trees.data?.length ? (
              <TreeList trees={trees.data} onOpen={setOpenTree} />
            ) : (
              <Typography color="text.secondary">
                {admin ? t('list.noTreesAdmin') : t('list.noTrees')}
              </Typography>
            )}
          </Section>
          <Section title={t('list.pastEvents')}>
            {pastEvents.length ? (
              <Stack sx={{ gap: 1.5 }}>
                {pastEvents.map((e) => (
                  <EventCard key={e.id} event={e} />
                ))}
                {past.hasNextPage && (
                  <Button onClick={() => void past.fetchNextPage()} disabled={past.isFetchingNextPage}>
                    {t('list.more')}
                  </Button>
                )}
              </Stack>
            ) : (
              <Typography color="text.secondary">
                {past.isLoading ? t('loading') : t('list.noPast')}
              </Typography>
            )}
          </Section>
        </>
      )}
      {dialog === 'start' && <StartEventDialog trees={starters} onClose={() => setDialog(null)} />}
      {dialog === 'newTree' && (
        <NewTreeDialog
          onClose={() => setDialog(null)}
          onCreated={(id) => {
            setDialog(null);
            setOpenTree(id);
          }}
        />
      )}
      {openTree && <TreeDialog treeId={openTree} onClose={() => setOpenTree(null)} />}
    </ScenePage>
  );
}
