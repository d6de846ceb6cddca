import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { type ReactNode, useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ME_QUERY_KEY } from '../../api/me.ts';
import { adminPeopleKeys } from '../../api/queryKeys.ts';
import { SceneLoading } from '../../components/SceneLoading.tsx';
import { ScenePage } from '../../components/ScenePage.tsx';
import { useServices } from '../../services.tsx';
import { PeopleTable } from './components/PeopleTable.tsx';

/**
 * `/admin/people` (administrators): everyone BTalk knows, searchable, page by page, with their role,
 * where the role comes from (the directory or BTalk) and whether they are disabled; an administrator
 * gives or takes the admin role and disables or enables people (disabling ends their sessions).
 */
export default function PeopleAdmin() {
  const { t } = useTranslation('peopleAdmin');
  const { api } = useServices();
  const [search, setSearch] = useState('');
  const shown = useDeferredValue(search.trim());
  const me = useQuery({ queryKey: ME_QUERY_KEY, queryFn: () => api.me.get() });
  const isAdmin = me.data?.abilities.managePeople === true;
  const list = useInfiniteQuery({
    queryKey: adminPeopleKeys.list(shown),
    queryFn: ({ pageParam }) => api.people.list(shown, pageParam || undefined),
    initialPageParam: '',
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    enabled: isAdmin,
  });

  let content: ReactNode;
  if (me.isPending) content = <SceneLoading />;
  else if (!isAdmin) content = <Alert severity="warning">{t('adminsOnly')}</Alert>;
  else {
    const people = list.data?.pages.flatMap((p) => p.items) ?? [];
    content = (
      <>
        <Typography sx={{ mb: 1 }}>{t('intro')}</Typography>
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('sourcesNote')}
        </Alert>
        <TextField
          label={t('search')}
          type="search"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          size="small"
          fullWidth
          sx={{ mb: 2, maxWidth: 480 }}
          slotProps={{ htmlInput: { maxLength: 200 } }}
        />
        {list.isPending ? (
          <SceneLoading />
        ) : list.isError ? (
          <Alert severity="error">{t('loadFailed')}</Alert>
        ) : (
          <PeopleTable people={people} meId={me.data?.id} />
        )}
        {list.hasNextPage && (
          <Button sx={{ mt: 2 }} disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
            {t('more')}
          </Button>
        )}
      </>
    );
  }
  return <ScenePage title={t('title')}>{content}</ScenePage>;
}
