import Button from '@mui/material/Button';
import List from '@mui/material/List';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { queryKeys } from '../../../../api/queryKeys.ts';
import { StateMessage } from '../../../../components/SignInPrompt.tsx';
import { useDebounced } from '../../../../components/useDebounced.ts';
import { useServices } from '../../../../services.tsx';
import { SearchFilters } from './SearchFilters.tsx';
import { SearchHit } from './SearchHit.tsx';
import { filtersFrom, searchRequest, withFilters } from './searchParams.ts';

/**
 * Home's search (loaded when the person first searches): the filters as chips above the hits, the
 * hits newest first, more on request. Words and filters live in the address (`searchParams.ts`).
 */
export default function SearchPanel() {
  const { t } = useTranslation('search');
  const { api } = useServices();
  const [params, setParams] = useSearchParams();
  const filters = filtersFrom(params);
  const q = useDebounced((params.get('q') ?? '').trim(), 300);
  const request = searchRequest(q, filters);
  const results = useInfiniteQuery({
    queryKey: queryKeys.search(request),
    queryFn: ({ pageParam }) => api.search.search(request, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    // The filters keep their names while the next answer comes.
    placeholderData: keepPreviousData,
    meta: { silent: true },
  });
  const items = results.data?.pages.flatMap((p) => p.items) ?? [];
  let body: ReactNode;
  if (results.isPending) body = <StateMessage text={t('searching')} />;
  else if (results.isError) body = <StateMessage text={t('failed')} onRetry={() => results.refetch()} />;
  else if (items.length === 0) body = <StateMessage text={q ? t('none', { q }) : t('noneFiltered')} />;
  else {
    body = (
      <>
        <List aria-label={t('results')} aria-busy={results.isFetching}>
          {items.map((hit) => (
            <li key={`${hit.kind}-${hit.commentId ?? hit.postId ?? hit.topicId}`}>
              <SearchHit hit={hit} />
            </li>
          ))}
        </List>
        {results.hasNextPage && (
          <Button
            onClick={() => results.fetchNextPage()}
            disabled={results.isFetchingNextPage}
            sx={{ mt: 1 }}
          >
            {t('more')}
          </Button>
        )}
      </>
    );
  }
  return (
    <>
      <SearchFilters
        value={filters}
        names={results.data?.pages[0]?.filters}
        onChange={(next) => setParams((p) => withFilters(p, next), { replace: true })}
      />
      {body}
    </>
  );
}
