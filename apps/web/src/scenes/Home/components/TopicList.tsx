import type { Topic } from '@btalk/contracts';
import Lock from '@mui/icons-material/Lock';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ListItemButton from '@mui/material/ListItemButton';
import Typography from '@mui/material/Typography';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ME_QUERY_KEY } from '../../../api/me.ts';
import { queryKeys } from '../../../api/queryKeys.ts';
import { conversationName, otherParticipants } from '../../../components/conversationName.ts';
import { initialOf } from '../../../components/initials.ts';
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
function PlainList({ label, items, myId }: { label: string; items: readonly Topic[]; myId?: string }) {
  return (
    <ul aria-label={label} style={{ margin: 0, padding: 0, listStyle: 'none' }}>
      {items.map((topic) => (
        <li key={topic.id}>
          <TopicRow topic={topic} myId={myId} />
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

/** A topic, or a direct conversation (called by its other people, with the first one's initial). */
export function TopicRow({ topic, myId }: { topic: Topic; myId?: string | undefined }) {
  const { t } = useTranslation('home');
  const unread = topic.unreadCount > 0;
  const direct = topic.visibility === 'direct';
  const title = direct ? conversationName(topic, myId) : topic.title;
  const others = direct ? otherParticipants(topic, myId).length : 0;
  return (
    <ListItemButton component={Link} to={`/topics/${topic.id}`} divider sx={{ gap: 2, py: 1.5 }}>
      <Avatar
        variant={direct ? 'circular' : 'rounded'}
        sx={{ bgcolor: topic.coverColor ?? (direct ? 'secondary.main' : 'primary.main'), color: '#fff' }}
        aria-hidden
      >
        {topic.coverEmoji ?? (others > 1 ? others : initialOf(title))}
      </Avatar>
      <Box sx={{ flexGrow: 1, minWidth: 0 }}>
        <Typography noWrap sx={{ fontWeight: unread ? 700 : 500 }}>
          {topic.visibility === 'members' && (
            <Lock fontSize="inherit" titleAccess={t('membersOnly')} sx={{ mr: 0.5, verticalAlign: '-2px' }} />
          )}
          {title}
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

/**
 * The topics the person sees (mine or all), or (`direct`) their direct conversations, newest
 * activity first, with unread counts.
 */
export function TopicList({ scope }: { scope: 'mine' | 'all' | 'direct' }) {
  const { t } = useTranslation('home');
  const { api } = useServices();
  const direct = scope === 'direct';
  const me = useQuery({ queryKey: ME_QUERY_KEY, queryFn: () => api.me.get(), enabled: direct });
  const topics = useInfiniteQuery({
    queryKey: queryKeys.topics.list(scope),
    queryFn: ({ pageParam }) => {
      const page = { cursor: pageParam, limit: TOPIC_PAGE_SIZE };
      return direct ? api.conversations.list(page) : api.topics.list({ scope, ...page });
    },
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    meta: { silent: true },
  });
  if (topics.isPending) return <StateMessage text={t(direct ? 'direct.loading' : 'loading')} />;
  if (topics.isError) {
    return <StateMessage text={t(direct ? 'direct.failed' : 'failed')} onRetry={() => topics.refetch()} />;
  }
  const items = topics.data.pages.flatMap((p) => p.items);
  if (direct) {
    // Conversations sit above the topics: a short list, grown by "Show more", never virtualised.
    if (items.length === 0) return <StateMessage text={t('direct.empty')} />;
    return (
      <>
        <PlainList label={t('direct.title')} items={items} myId={me.data?.id} />
        {topics.hasNextPage && (
          <Button size="small" onClick={() => topics.fetchNextPage()} disabled={topics.isFetchingNextPage}>
            {t('direct.more')}
          </Button>
        )}
      </>
    );
  }
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
