import type { AnnouncementPeopleStatus, AnnouncementPerson } from '@btalk/contracts';
import CheckCircle from '@mui/icons-material/CheckCircle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { announcementKeys } from '../../../api/announcementKeys.ts';
import type { AnnouncementPeopleFilters } from '../../../api/announcements.ts';
import { PersonButton } from '../../../components/PersonCard/PersonButton.tsx';
import { fullTime } from '../../../components/time.ts';
import { useServices } from '../../../services.tsx';

const STATUSES: AnnouncementPeopleStatus[] = ['pending', 'acknowledged', 'all'];
const STATUS_LABEL = {
  pending: 'report.showPending',
  acknowledged: 'report.showAcknowledged',
  all: 'report.showAll',
} as const;

/** One person of the audience: department, manager, and when they saw and acknowledged the post. */
function PersonRow({ person }: { person: AnnouncementPerson }) {
  const { t } = useTranslation('announcements');
  return (
    <Box
      component="article"
      aria-label={person.displayName}
      sx={{ py: 1.25, px: 1, borderBottom: 1, borderColor: 'divider' }}
    >
      <Stack direction="row" sx={{ gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <PersonButton person={person}>
          <Typography component="span" sx={{ fontWeight: 700 }}>
            {person.displayName}
          </Typography>
        </PersonButton>
        {person.acknowledgedAt && (
          <Chip
            size="small"
            color="success"
            variant="outlined"
            icon={<CheckCircle aria-hidden />}
            label={t('report.acknowledgedAt', { time: fullTime(person.acknowledgedAt) })}
          />
        )}
      </Stack>
      <Typography variant="body2" color="text.secondary">
        {[person.department, person.email].filter(Boolean).join(' · ')}
      </Typography>
      <Typography variant="body2">
        {person.managerName ? t('report.manager', { name: person.managerName }) : t('report.noManager')}
        {' · '}
        {person.seenAt ? t('report.seenAt', { time: fullTime(person.seenAt) }) : t('report.notSeen')}
      </Typography>
    </Box>
  );
}

/**
 * The people of the audience, not acknowledged first (the server's order), a page at a time: those
 * who have not acknowledged, those who have, or everyone; within a department and a branch.
 */
export function PeopleSection({
  postId,
  filters,
  branchName,
  onStatus,
  onClearBranch,
}: {
  postId: string;
  filters: AnnouncementPeopleFilters;
  /** The chosen branch's manager, when the list is narrowed to a branch. */
  branchName: string | undefined;
  onStatus: (status: AnnouncementPeopleStatus) => void;
  onClearBranch: () => void;
}) {
  const { t } = useTranslation('announcements');
  const { api } = useServices();
  const pages = useInfiniteQuery({
    queryKey: announcementKeys.people(postId, filters),
    queryFn: ({ pageParam }) => api.announcements.people(postId, filters, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
  });
  // A person acknowledging between two pages moves: each is shown once, where they first appear.
  const seen = new Set<string>();
  const people: AnnouncementPerson[] = [];
  for (const person of pages.data?.pages.flatMap((p) => p.items) ?? []) {
    if (!seen.has(person.id)) {
      seen.add(person.id);
      people.push(person);
    }
  }
  return (
    <Box component="section" aria-labelledby="people-heading">
      <Typography id="people-heading" variant="h6" component="h2" gutterBottom>
        {t('report.people')}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ gap: 1, mb: 1.5, alignItems: { sm: 'center' } }}>
        <Stack direction="row" role="group" aria-label={t('report.show')} sx={{ gap: 0.5 }}>
          {STATUSES.map((status) => (
            <Button
              key={status}
              size="small"
              variant={filters.status === status ? 'contained' : 'outlined'}
              aria-pressed={filters.status === status}
              onClick={() => onStatus(status)}
            >
              {t(STATUS_LABEL[status])}
            </Button>
          ))}
        </Stack>
        {branchName && (
          <Stack direction="row" sx={{ gap: 1, alignItems: 'center' }}>
            <Typography variant="body2" sx={{ fontWeight: 700, overflowWrap: 'anywhere' }}>
              {t('report.branchFilter', { name: branchName })}
            </Typography>
            <Button size="small" onClick={onClearBranch}>
              {t('report.clearBranch')}
            </Button>
          </Stack>
        )}
      </Stack>
      {pages.isSuccess && people.length === 0 && (
        <Typography color="text.secondary" role="status">
          {filters.status === 'pending' ? t('report.everyoneAcknowledged') : t('report.peopleEmpty')}
        </Typography>
      )}
      <Box aria-busy={pages.isFetching} sx={{ overflowWrap: 'anywhere' }}>
        {people.map((person) => (
          <PersonRow key={person.id} person={person} />
        ))}
      </Box>
      {pages.hasNextPage && (
        <Button
          sx={{ mt: 1 }}
          loading={pages.isFetchingNextPage}
          onClick={() => void pages.fetchNextPage({ cancelRefetch: false })}
        >
          {t('report.loadMore')}
        </Button>
      )}
    </Box>
  );
}
