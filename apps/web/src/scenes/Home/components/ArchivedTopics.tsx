import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../../../api/queryKeys.ts';
import { StateMessage } from '../../../components/SignInPrompt.tsx';
import { useDebounced } from '../../../components/useDebounced.ts';
import { useServices } from '../../../services.tsx';
import { TOPIC_PAGE_SIZE, TopicRow } from './TopicList.tsx';

/** Longest title search the server takes (`TopicListQuery.q`). */
const MAX_TITLE_SEARCH = 100;

/**
 * Home's "Archived": the archived topics the person sees, newest archived first, found by title and
 * grown page by page with "Show more". Each opens the topic, read-only, where its owners restore it.
 * Loaded when the person first opens it (Home's first screen does not carry it).
 */
export default function ArchivedTopics() {
  const { t } = useTranslation('archive');
  const { api } = useServices();
  const [text, setText] = useState('');
  const q = useDebounced(text.trim());
  const topics = useInfiniteQuery({
    queryKey: queryKeys.topics.archived(q),
    queryFn: ({ pageParam }) =>
      api.topics.list({ archived: 'true', q: q || undefined, cursor: pageParam, limit: TOPIC_PAGE_SIZE }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    meta: { silent: true },
  });
  const items = topics.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <>
      <TextField
        type="search"
        size="small"
        fullWidth
        label={t('search')}
        value={text}
        onChange={(e) => setText(e.target.value)}
        slotProps={{ htmlInput: { maxLength: MAX_TITLE_SEARCH } }}
        sx={{ mb: 1 }}
      />
      {topics.isPending ? (
        <StateMessage text={t('loading')} />
      ) : topics.isError ? (
        <StateMessage text={t('failed')} onRetry={() => topics.refetch()} />
      ) : items.length === 0 ? (
        <StateMessage text={q ? t('none', { q }) : t('empty')} />
      ) : (
        <>
          <ul aria-label={t('label')} style={{ margin: 0, padding: 0, listStyle: 'none' }}>
            {items.map((topic) => (
              <li key={topic.id}>
                <TopicRow topic={topic} />
              </li>
            ))}
          </ul>
          {topics.hasNextPage && (
            <Button size="small" onClick={() => topics.fetchNextPage()} disabled={topics.isFetchingNextPage}>
              {t('more')}
            </Button>
          )}
        </>
      )}
    </>
  );
}
