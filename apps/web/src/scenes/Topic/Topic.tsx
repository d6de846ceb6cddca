import type { Post } from '@btalk/contracts';
import { ErrorCode } from '@btalk/contracts/constants';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import type { VirtuosoHandle } from 'react-virtuoso';
import { isErrorEnvelope } from '../../api/errors.ts';
import { ScenePage } from '../../components/ScenePage.tsx';
import { SignInPrompt, StateMessage, useSignedIn } from '../../components/SignInPrompt.tsx';
import { Composer } from './components/Composer.tsx';
import { PinnedPosts } from './components/PinnedPosts.tsx';
import { PostList } from './components/PostList.tsx';
import { TopicHeader } from './components/TopicHeader.tsx';
import { TopicLive } from './components/TopicLive.tsx';
import { usePostJump } from './components/usePostJump.ts';
import { useMarkRead, useMyId, usePosts, useTopic } from './components/useTopicData.ts';

/** The topic's posts and composer, once the topic is known. */
function TopicBody({ topicId }: { topicId: string }) {
  const { t } = useTranslation('topic');
  const topic = useTopic(topicId);
  const myId = useMyId();
  const { query, posts, pinned, loadOlder } = usePosts(topicId);
  const navigate = useNavigate();
  const jump = usePostJump({
    posts,
    loaded: query.isSuccess,
    hasOlder: query.hasNextPage,
    loadingOlder: query.isFetchingNextPage,
    failed: query.isFetchNextPageError,
    loadOlder,
  });
  const finding = jump?.state === 'finding';
  // `?comment=<id>#post-<n>` (a notification about a comment): the post opens with its comments on it.
  const [searchParams] = useSearchParams();
  const focusCommentId = searchParams.get('comment') ?? undefined;
  const markRead = useMarkRead(topic.data);
  const listRef = useRef<VirtuosoHandle>(null);
  const atBottom = useRef(false);
  // The divider stays where it was when the topic opened, however the marker moves meanwhile.
  const [lastReadAtOpen, setLastReadAtOpen] = useState<number | null>(null);
  useEffect(() => {
    if (topic.data && lastReadAtOpen === null) setLastReadAtOpen(topic.data.lastReadNumber);
  }, [topic.data, lastReadAtOpen]);
  useEffect(() => {
    if (topic.data) document.title = `${topic.data.title} · BTalk`;
  }, [topic.data]);
  const newest = posts[posts.length - 1]?.number ?? 0;
  const newestAuthor = posts[posts.length - 1]?.author.id;
  // Posts by others that arrive while the reader looks further up wait behind a chip, not a jump.
  const [newPostsChip, setNewPostsChip] = useState(false);
  const seenNewest = useRef(0);
  useEffect(() => {
    if (atBottom.current && newest > 0) markRead(newest);
    if (seenNewest.current > 0 && newest > seenNewest.current && !atBottom.current && newestAuthor !== myId) {
      setNewPostsChip(true);
    }
    seenNewest.current = Math.max(seenNewest.current, newest);
  }, [newest, newestAuthor, myId, markRead]);

  if (topic.isPending) return <StateMessage text={t('loading')} />;
  if (topic.isError) {
    const missing = isErrorEnvelope(topic.error) && topic.error.code === ErrorCode.notFound;
    return (
      <ScenePage title={t('title')}>
        <StateMessage
          text={missing ? t('notFound') : t('failed')}
          onRetry={missing ? undefined : () => topic.refetch()}
        />
        <Button component={Link} to="/">
          {t('backHome')}
        </Button>
      </ScenePage>
    );
  }
  const onPosted = (post: Post) => {
    markRead(post.number);
    requestAnimationFrame(() =>
      listRef.current?.scrollToIndex({ index: 'LAST', align: 'end', behavior: 'smooth' }),
    );
  };
  return (
    <Paper
      variant="outlined"
      sx={{
        display: 'flex',
        flexDirection: 'column',
        height: { xs: 'calc(100dvh - 88px)', sm: 'calc(100dvh - 128px)' },
        minHeight: 360,
        borderRadius: 3,
        overflow: 'hidden',
      }}
    >
      <TopicHeader topic={topic.data} myId={myId} />
      <PinnedPosts
        pinned={pinned}
        onOpen={(post) => {
          const index = posts.findIndex((p) => p.id === post.id);
          if (index >= 0) listRef.current?.scrollToIndex({ index, align: 'start', behavior: 'smooth' });
          // Not loaded yet: follow it as a link, loading the older posts up to it.
          else void navigate({ hash: `post-${post.number}` });
        }}
      />
      <TopicLive topicId={topicId} />
      {query.isPending && <StateMessage text={t('posts.loading')} />}
      {query.isError && <StateMessage text={t('posts.failed')} onRetry={() => query.refetch()} />}
      {query.isSuccess && posts.length === 0 && (
        <Typography color="text.secondary" sx={{ flexGrow: 1, p: 3, textAlign: 'center' }} role="status">
          {t('posts.empty')}
        </Typography>
      )}
      {finding && <StateMessage text={t('posts.finding')} />}
      {query.isSuccess && posts.length > 0 && lastReadAtOpen !== null && !finding && (
        <PostList
          // A followed link opens the list anew on its post.
          key={jump?.state === 'found' ? `post-${jump.number}` : 'newest'}
          focusNumber={jump?.state === 'found' ? jump.number : undefined}
          focusCommentId={jump?.state === 'found' ? focusCommentId : undefined}
          listRef={listRef}
          posts={posts}
          myId={myId}
          lastReadAtOpen={lastReadAtOpen}
          hasOlder={query.hasNextPage}
          loadingOlder={query.isFetchingNextPage}
          onLoadOlder={() => loadOlder()}
          onAtBottom={(bottom) => {
            atBottom.current = bottom;
            if (bottom) setNewPostsChip(false);
            if (bottom && newest > 0) markRead(newest);
          }}
        />
      )}
      {newPostsChip && (
        <Chip
          color="secondary"
          label={t('posts.newPosts')}
          onClick={() => {
            setNewPostsChip(false);
            listRef.current?.scrollToIndex({ index: 'LAST', align: 'end', behavior: 'smooth' });
          }}
          sx={{ alignSelf: 'center', mt: -5, mb: 1, zIndex: 1, boxShadow: 2 }}
        />
      )}
      {topic.data.abilities.post ? (
        <Composer key={topicId} topicId={topicId} onPosted={onPosted} />
      ) : (
        <Typography color="text.secondary" sx={{ p: 2, borderTop: 1, borderColor: 'divider' }}>
          {topic.data.archivedAt ? t('composer.archived') : t('composer.cannotPost')}
        </Typography>
      )}
    </Paper>
  );
}

/** A topic (`/topics/:id`): header, the posts as a chat with the newest at the bottom, the composer. */
export default function Topic() {
  const { t } = useTranslation('topic');
  const { id = '' } = useParams();
  const signedIn = useSignedIn();
  if (!signedIn) {
    return (
      <ScenePage title={t('title')}>
        <SignInPrompt text={t('signInText')} />
      </ScenePage>
    );
  }
  return <TopicBody key={id} topicId={id} />;
}
