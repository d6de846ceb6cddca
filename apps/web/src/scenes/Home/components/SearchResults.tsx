import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { queryKeys } from '../../../api/queryKeys.ts';
import { StateMessage } from '../../../components/SignInPrompt.tsx';
import { shortTime } from '../../../components/time.ts';
import { useDebounced } from '../../../components/useDebounced.ts';
import { useServices } from '../../../services.tsx';

/** Search hits for the query: topics and posts the person may see, newest first. */
export function SearchResults({ query }: { query: string }) {
  const { t } = useTranslation('home');
  const { api } = useServices();
  const q = useDebounced(query.trim(), 300);
  const results = useQuery({
    queryKey: queryKeys.search(q),
    queryFn: () => api.search.search(q),
    enabled: q.length > 0,
    meta: { silent: true },
  });
  if (results.isPending) return <StateMessage text={t('search.searching')} />;
  if (results.isError) return <StateMessage text={t('search.failed')} onRetry={() => results.refetch()} />;
  if (results.data.items.length === 0) return <StateMessage text={t('search.none', { q })} />;
  return (
    <List aria-label={t('search.results')}>
      {results.data.items.map((hit) => (
        <ListItemButton
          key={`${hit.kind}-${hit.postId ?? hit.topicId}`}
          component={Link}
          to={`/topics/${hit.topicId}`}
          divider
        >
          <ListItemText
            primary={hit.kind === 'topic' ? hit.topicTitle : t('search.postIn', { title: hit.topicTitle })}
            secondary={`${shortTime(hit.createdAt)} · ${hit.snippet}`}
            slotProps={{ secondary: { sx: { overflowWrap: 'anywhere' } } }}
          />
        </ListItemButton>
      ))}
    </List>
  );
}
