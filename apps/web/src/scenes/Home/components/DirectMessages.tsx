import Add from '@mui/icons-material/Add';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ME_QUERY_KEY } from '../../../api/me.ts';
import { lazyOnFirstUse } from '../../../components/lazyOnFirstUse.tsx';
import { withTexts } from '../../../i18n/index.ts';
import { useServices } from '../../../services.tsx';
import { TopicList } from './TopicList.tsx';

// The dialog and the people picker load when "New message" is first pressed (or hovered, focused).
const NewMessageDialog = lazyOnFirstUse(() => withTexts(import('./NewMessageDialog.tsx'), 'directMessages'));

/**
 * Home's "Direct messages", apart from the topics: my conversations, newest activity first, each
 * with the other people's names, the last activity and the unread count (Home's own list, kept live
 * by the realtime cache updates as the topic lists are), and "New message".
 */
export function DirectMessages() {
  const { t } = useTranslation('home');
  const { api } = useServices();
  const [dialog, setDialog] = useState(false);
  const me = useQuery({ queryKey: ME_QUERY_KEY, queryFn: () => api.me.get() });
  return (
    <Box component="section" aria-labelledby="direct-messages-heading" sx={{ mb: 2 }}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography id="direct-messages-heading" variant="subtitle1" component="h2" sx={{ fontWeight: 700 }}>
          {t('direct.title')}
        </Typography>
        <Button
          size="small"
          startIcon={<Add />}
          onClick={() => setDialog(true)}
          onMouseEnter={NewMessageDialog.preload}
          onFocus={NewMessageDialog.preload}
        >
          {t('direct.new')}
        </Button>
      </Stack>
      <TopicList scope="direct" />
      {dialog && <NewMessageDialog myId={me.data?.id} onClose={() => setDialog(false)} />}
    </Box>
  );
}
