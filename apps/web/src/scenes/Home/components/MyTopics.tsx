import Add from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import ButtonGroup from '@mui/material/ButtonGroup';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SearchBox } from './SearchBox.tsx';
import { SearchResults } from './SearchResults.tsx';
import { TopicList } from './TopicList.tsx';

/** Home for a signed-in person: search, "New topic", and my or all topics. */
export default function MyTopics() {
  const { t } = useTranslation('home');
  const [scope, setScope] = useState<'mine' | 'all'>('mine');
  const [query, setQuery] = useState('');
  const scopeButton = (value: 'mine' | 'all') => (
    <Button
      variant={scope === value ? 'contained' : 'outlined'}
      aria-pressed={scope === value}
      onClick={() => setScope(value)}
    >
      {t(`scope.${value}`)}
    </Button>
  );
  return (
    <>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2, alignItems: { sm: 'center' } }}>
        <SearchBox value={query} onChange={setQuery} />
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
      {query.trim() ? (
        <SearchResults query={query} />
      ) : (
        <>
          <ButtonGroup size="small" aria-label={t('scope.label')} sx={{ mb: 1 }}>
            {scopeButton('mine')}
            {scopeButton('all')}
          </ButtonGroup>
          <TopicList scope={scope} />
        </>
      )}
    </>
  );
}
