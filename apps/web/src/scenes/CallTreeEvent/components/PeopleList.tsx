import type { CallEventDetail, CallPerson } from '@btalk/contracts';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RollupFilters } from '../../../api/calltree.ts';
import { callTreeKeys } from '../../../api/queryKeys.ts';
import { VirtualList } from '../../../components/VirtualList.tsx';
import { useServices } from '../../../services.tsx';
import { OnBehalfDialog } from './OnBehalfDialog.tsx';
import { PersonRow } from './PersonRow.tsx';

/** The people of the roll-up: those needing help first, then those without an answer, then the safe. */
export function PeopleList({
  event,
  filters,
  meId,
  refetchInterval,
}: {
  event: CallEventDetail;
  filters: RollupFilters;
  meId: string | undefined;
  refetchInterval: number | false;
}) {
  const { t } = useTranslation('calltree');
  const { api } = useServices();
  const [answering, setAnswering] = useState<CallPerson | null>(null);
  const [more, setMore] = useState(false);
  const first = event.people;
  const pages = useInfiniteQuery({
    queryKey: callTreeKeys.people(event.id, filters),
    queryFn: ({ pageParam }) => api.calltree.people(event.id, filters, pageParam),
    initialPageParam: first.nextCursor ?? '',
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    enabled: more && !!first.nextCursor,
    refetchInterval,
  });
  // Answers reorder the list between pages: each person is shown once, where they first appear.
  const seen = new Set<string>();
  const people: CallPerson[] = [];
  for (const p of [...first.items, ...(more ? (pages.data?.pages.flatMap((pg) => pg.items) ?? []) : [])]) {
    if (!seen.has(p.id)) {
      seen.add(p.id);
      people.push(p);
    }
  }
  const loadMore = () => {
    if (!first.nextCursor) return;
    if (!more) setMore(true);
    else if (pages.hasNextPage && !pages.isFetchingNextPage) void pages.fetchNextPage();
  };
  return (
    <Box component="section" aria-labelledby="people-heading">
      <Typography id="people-heading" variant="h6" component="h2" gutterBottom>
        {t('people.title')}
      </Typography>
      {people.length === 0 ? (
        <Typography color="text.secondary">{t('people.empty')}</Typography>
      ) : (
        <VirtualList
          label={t('people.title')}
          items={people}
          itemKey={(p) => p.id}
          onEndReached={loadMore}
          renderItem={(person) => (
            <PersonRow
              person={person}
              options={event.options}
              {...(event.abilities.answerOnBehalf && person.status === 'no_answer' && person.id !== meId
                ? { onAnswerFor: () => setAnswering(person) }
                : {})}
            />
          )}
        />
      )}
      {pages.isFetching && more && (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 2 }}>
          <CircularProgress size={24} aria-label={t('loading')} />
        </Box>
      )}
      {answering && (
        <OnBehalfDialog
          eventId={event.id}
          person={answering}
          options={event.options}
          onClose={() => setAnswering(null)}
        />
      )}
    </Box>
  );
}
