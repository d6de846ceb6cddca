import type { Topic } from '@btalk/contracts';
import Lock from '@mui/icons-material/Lock';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import ListItemButton from '@mui/material/ListItemButton';
import Typography from '@mui/material/Typography';
import { useInfiniteQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { queryKeys } from '../../../api/queryKeys.ts';
import { StateMessage } from '../../../components/SignInPrompt.tsx';
import { fullTime, shortTime } from '../../../components/time.ts';
import { useServices } from '../../../services.tsx';

// Virtualisation (react-virtuoso) loads only for a list longer than one page: most people's Home
// shows one short page, and the first screen stays within its JavaScript budget (issue 14).
const VirtualList = lazy(async () => ({
  default: (await import('../../../components/VirtualList.tsx')).VirtualList,
})) as typeof import('../../../components/VirtualList.tsx').VirtualList;

/** Topics per page; a list of one page is short enough to render whole. */
export const TOPIC_PAGE_SIZE = 30;

/** A short list rendered whole, as the virtualised list renders it (a named list of items). */
function PlainList({ label, items }: { label: string; items: readonly Topic[] }) {
  return (
    <ul aria-label={label} style={{ margin: 0, padding: 0, listStyle: 'none' }}>
      {items.map((topic) => (
        <li key={topic.id}>
          <TopicRow topic={topic} />
        </li>
      ))}
    </ul>
  );
}

/** The unread count as a small pill in the secondary colour (drawn as MUI's small Chip is, without its code). */
function UnreadCount({ text }: { text: string }) {
  return (
    <Box
      component="span"
      sx={{
        display: 'inline-flex',
        alignItems: 'center',
        height: 24,
        px: 1,
        borderRadius: 3,
        bgcolor: 'secondary.main',
        color: 'secondary.contrastText',
        typography: 'body2',
        fontSize: '0.8125rem',
        whiteSpace: 'nowrap',
      }}
    >
      {text}
    </Box>
  );
}

function TopicRow({ topic }: { topic: Topic }) {
  const { t } = useTranslation('home');
  const unread = topic.unreadCount > 0;
  return (
    <ListItemButton component={Link} to={`/topics/${topic.id}`} divider sx={{ gap: 2, py: 1.5 }}>
      <Avatar
        variant="rounded"
        sx={{ bgcolor: topic.coverColor ?? 'primary.main', color: '#fff' }}
        aria-hidden
      >
        {topic.coverEmoji ?? Array.from(topic.title)[0]?.toUpperCase()}
      </Avatar>
      <Box sx={{ flexGrow: 1, minWidth: 0 }}>
        <Typography noWrap sx={{ fontWeight: unread ? 700 : 500 }}>
          {topic.visibility === 'members' && (
            <Lock fontSize="inherit" titleAccess={t('membersOnly')} sx={{ mr: 0.5, verticalAlign: '-2px' }} />
          )}
          {topic.title}
        </Typography>
        <Typography variant="body2" color="text.secondary" noWrap>
          {t('members', { count: topic.memberCount })} · {t('posts', { count: topic.postCount })}
          {topic.archivedAt ? ` · ${t('archived')}` : ''}
        </Typography>
      </Box>
      <Box sx={{ textAlign: 'right', flexShrink: 0 }}>
        <Typography
          variant="caption"
          color="text.secondary"
          component="time"
          title={fullTime(topic.lastActivityAt)}
        >
          {t('lastActivity', { time: shortTime(topic.lastActivityAt) })}
        </Typography>
        {unread && (
          <Box>
            <UnreadCount text={t('unread', { count: topic.unreadCount })} />
          </Box>
        )}
      </Box>
    </ListItemButton>
  );
}

/** The topics the person sees (mine or all), newest activity first, with unread counts. */
export function TopicList({ scope }: { scope: 'mine' | 'all' }) {
  const { t } = useTranslation('home');
  const { api } = useServices();
  const topics = useInfiniteQuery({
    queryKey: queryKeys.topics.list(scope),
    queryFn: ({ pageParam }) => api.topics.list({ scope, cursor: pageParam, limit: TOPIC_PAGE_SIZE }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    meta: { silent: true },
  });
  if (topics.isPending) return <StateMessage text={t('loading')} />;
  if (topics.isError) return <StateMessage text={t('failed')} onRetry={() => topics.refetch()} />;
  const items = topics.data.pages.flatMap((p) => p.items);
  if (items.length === 0) return <StateMessage text={scope === 'mine' ? t('emptyMine') : t('emptyAll')} />;
  if (!topics.hasNextPage && items.length <= TOPIC_PAGE_SIZE) {
    return <PlainList label={t('listLabel')} items={items} />;
  }
  return (
    <Suspense fallback={<StateMessage text={t('loading')} />}>
      <VirtualList
        label={t('listLabel')}
        items={items}
        itemKey={(topic) => topic.id}
        renderItem={(topic) => <TopicRow topic={topic} />}
        onEndReached={() => {
          if (topics.hasNextPage && !topics.isFetchingNextPage) void topics.fetchNextPage();
        }}
      />
    </Suspense>
  );
}
