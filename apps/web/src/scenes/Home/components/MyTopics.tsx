import Add from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import ButtonGroup from '@mui/material/ButtonGroup';
import Stack from '@mui/material/Stack';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { lazyOnFirstUse } from '../../../components/lazyOnFirstUse.tsx';
import { StateMessage } from '../../../components/SignInPrompt.tsx';
import { useAfterFirstScreen } from '../../../startup/afterFirstScreen.ts';
import { DirectMessages } from './DirectMessages.tsx';
import { SearchBox } from './SearchBox.tsx';
import { isSearching } from './search/searchParams.ts';
import { TopicList } from './TopicList.tsx';

// The search (filters, hits, snippets) loads when the person first searches: Home's first screen
// shows the topic list (first-load budget).
// Home's "Important" strip (issue 17) comes a moment after the first screen: its code and its request
// would otherwise take the first screen past its budget (bench/web-size.ts), and most visits have
// nothing to acknowledge. Important posts also come pinned in their topic and by notification.
const ImportantStrip = lazyOnFirstUse<object>(() =>
  import('./ImportantStrip.tsx').then((m) => ({ default: m.ImportantStrip })),
);
const SearchPanel = lazy(() => import('./search/loadSearchPanel.ts').then((m) => m.loadSearchPanel()));
// The archive (its title search and list) loads when the person first opens "Archived".
const ArchivedTopics = lazy(() => import('./loadArchivedTopics.ts').then((m) => m.loadArchivedTopics()));

/**
 * Home for a signed-in person: search, "New topic", and my, all or archived topics. The search's words and
 * filters are in the address, so Back from a result returns to the same results.
 */
export default function MyTopics() {
  const { t } = useTranslation('home');
  const [scope, setScope] = useState<'mine' | 'all' | 'archived'>('mine');
  const [params, setParams] = useSearchParams();
  const afterFirstScreen = useAfterFirstScreen();
  const scopeButton = (value: 'mine' | 'all' | 'archived') => (
    <Button
      variant={scope === value ? 'contained' : 'outlined'}
      aria-pressed={scope === value}
      onClick={() => setScope(value)}
    >
      {t(`scope.${value}`)}
    </Button>
  );
  const setQuery = (q: string) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (q) next.set('q', q);
        else next.delete('q');
        return next;
      },
      { replace: true },
    );
  return (
    <>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2, alignItems: { sm: 'center' } }}>
        <SearchBox value={params.get('q') ?? ''} onChange={setQuery} />
        <Button
          component={Link}
          to="/topics/new"
          variant="contained"
          startIcon={<Add />}
          sx={{ flexShrink: 0 }}
        >
          {t('newTopic')}
        </Button>
      </Stack>
      {isSearching(params) ? (
        <Suspense fallback={<StateMessage text={t('search.searching')} />}>
          <SearchPanel />
        </Suspense>
      ) : (
        <>
          {afterFirstScreen && <ImportantStrip />}
          <DirectMessages />
          <ButtonGroup size="small" aria-label={t('scope.label')} sx={{ mb: 1 }}>
            {scopeButton('mine')}
            {scopeButton('all')}
            {scopeButton('archived')}
          </ButtonGroup>
          {scope === 'archived' ? (
            <Suspense fallback={<StateMessage text={t('loading')} />}>
              <ArchivedTopics />
            </Suspense>
          ) : (
            <TopicList scope={scope} />
          )}
        </>
      )}
    </>
  );
}
