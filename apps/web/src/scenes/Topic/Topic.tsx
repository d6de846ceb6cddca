import type { Post } from '@btalk/contracts';
import { ErrorCode } from '@btalk/contracts/constants';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import type { VirtuosoHandle } from 'react-virtuoso';
import { isErrorEnvelope } from '../../api/errors.ts';
import { conversationName } from '../../components/conversationName.ts';
import { ScenePage } from '../../components/ScenePage.tsx';
import { SignInPrompt, StateMessage, useSignedIn } from '../../components/SignInPrompt.tsx';
import { dialogs } from '../../stores/dialogs.ts';
import { ArchivedBanner } from './components/ArchivedBanner.tsx';
import { Composer } from './components/Composer.tsx';
import { ImportantPosts } from './components/ImportantPosts.tsx';
import { PinnedPosts } from './components/PinnedPosts.tsx';
import { type ListAnchor, PostList } from './components/PostList.tsx';
import { TopicHeader } from './components/TopicHeader.tsx';
import { TopicLive } from './components/TopicLive.tsx';
import { postNumberFromHash, usePostJump } from './components/usePostJump.ts';
import { usePostKeys } from './components/usePostKeys.ts';
import { useMarkRead, useMyId, usePosts, useTopic } from './components/useTopicData.ts';

/**
 * A function that is the same on every draw and always calls the latest `fn`: the memoised parts of
 * the page get it as a prop without drawing again each time the page does.
 */
function useStableCallback<A extends unknown[]>(fn: (...args: A) => void): (...args: A) => void {
  const latest = useRef(fn);
  useLayoutEffect(() => {
    latest.current = fn;
  });
  return useCallback((...args: A) => latest.current(...args), []);
}

/** The topic's posts and composer, once the topic is known. */
function TopicBody({ topicId }: { topicId: string }) {
  const { t } = useTranslation('topic');
  const topic = useTopic(topicId);
  const myId = useMyId();
  const { hash } = useLocation();
  const { query, posts, pinned, loadOlder, loadNewer, open } = usePosts(topicId, postNumberFromHash(hash));
  const navigate = useNavigate();
  const jump = usePostJump({ posts, loaded: query.isSuccess, hasNewer: query.hasPreviousPage, open });
  const finding = jump?.state === 'finding';
  // Where the list opens; a new `seq` draws it anew there.
  const [view, setView] = useState<{ anchor: ListAnchor; seq: number }>({
    anchor: { kind: 'newest' },
    seq: 0,
  });
  const found = jump?.state === 'found' ? jump.number : null;
  useEffect(() => {
    if (found !== null) setView((v) => ({ anchor: { kind: 'post', number: found }, seq: v.seq + 1 }));
  }, [found]);
  // `?comment=<id>#post-<n>` (a notification about a comment): the post opens with its comments on it.
  const [searchParams] = useSearchParams();
  const focusCommentId = searchParams.get('comment') ?? undefined;
  const markRead = useMarkRead(topic.data);
  usePostKeys();
  const listRef = useRef<VirtuosoHandle>(null);
  const atBottom = useRef(false);
  // The divider stays where it was when the topic opened, however the marker moves meanwhile.
  const [lastReadAtOpen, setLastReadAtOpen] = useState<number | null>(null);
  useEffect(() => {
    if (topic.data && lastReadAtOpen === null) setLastReadAtOpen(topic.data.lastReadNumber);
  }, [topic.data, lastReadAtOpen]);
  useEffect(() => {
    if (topic.data) document.title = `${conversationName(topic.data, myId)} · BTalk`;
  }, [topic.data, myId]);
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

  /**
   * Shows one end of the topic: scrolls there when it is loaded, or loads that end's page in one
   * request and draws the list anew there. A followed link is left behind (the address loses it).
   */
  const jumpTo = async (end: 'oldest' | 'newest') => {
    if (hash) void navigate({ hash: '' }, { replace: true });
    const loaded = end === 'oldest' ? posts[0]?.number === 1 : !query.hasPreviousPage;
    if (loaded) {
      listRef.current?.scrollToIndex({
        index: end === 'oldest' ? 0 : 'LAST',
        align: end === 'oldest' ? 'start' : 'end',
      });
      return;
    }
    try {
      await open(end === 'oldest' ? { from: 'oldest' } : {});
    } catch {
      dialogs.showSnack(t('posts.failed'));
      return;
    }
    setView((v) => ({ anchor: { kind: end }, seq: v.seq + 1 }));
  };

  const onPosted = useStableCallback((post: Post) => {
    markRead(post.number);
    // Writing from further back in the topic takes the reader to their post at the newest end.
    if (query.hasPreviousPage) void jumpTo('newest');
    else
      requestAnimationFrame(() =>
        listRef.current?.scrollToIndex({ index: 'LAST', align: 'end', behavior: 'smooth' }),
      );
  });
  const openNumber = useStableCallback((number: number) => {
    const index = posts.findIndex((p) => p.number === number);
    if (index >= 0) listRef.current?.scrollToIndex({ index, align: 'start', behavior: 'smooth' });
    // Not loaded: follow it as a link, loading the page around it.
    else void navigate({ hash: `post-${number}` });
  });
  const openPinned = useStableCallback((post: Post) => openNumber(post.number));
  // Important posts may be among the loaded posts or the first page's pinned ones.
  const knownPosts = useMemo(() => [...pinned, ...posts], [pinned, posts]);
  const jumpFirst = useStableCallback(() => void jumpTo('oldest'));
  const jumpLatest = useStableCallback(() => void jumpTo('newest'));
  const onAtBottom = useStableCallback((bottom: boolean) => {
    atBottom.current = bottom;
    if (bottom) setNewPostsChip(false);
    if (bottom && newest > 0) markRead(newest);
  });
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
  // The list opens at the first post someone else wrote after the marker: it waits for who "I" am.
  const listReady =
    query.isSuccess && posts.length > 0 && lastReadAtOpen !== null && myId !== undefined && !finding;
  return (
    <Paper
      variant="outlined"
      sx={{
        display: 'flex',
        flexDirection: 'column',
        // The screen's height, less the app bar and the margins: with the on-screen keyboard open it
        // shrinks with the page (index.html's `interactive-widget=resizes-content`).
        height: { xs: 'calc(100dvh - 88px)', sm: 'calc(100dvh - 128px)' },
        minHeight: 240,
        borderRadius: 3,
        overflow: 'hidden',
      }}
    >
      <TopicHeader topic={topic.data} myId={myId} />
      {topic.data.archivedAt && <ArchivedBanner topic={topic.data} />}
      <ImportantPosts topicId={topicId} posts={knownPosts} myId={myId} onOpen={openNumber} />
      <PinnedPosts pinned={pinned} onOpen={openPinned} />
      <TopicLive topicId={topicId} />
      {/* The posts' place is kept from the first frame, so the composer never moves when they come. */}
      <Box sx={{ flexGrow: 1, minHeight: 0, display: 'flex', flexDirection: 'column' }}>
        {query.isPending && <StateMessage text={t('posts.loading')} />}
        {query.isError && <StateMessage text={t('posts.failed')} onRetry={() => query.refetch()} />}
        {query.isSuccess && posts.length === 0 && (
          <Typography color="text.secondary" sx={{ flexGrow: 1, p: 3, textAlign: 'center' }} role="status">
            {t('posts.empty')}
          </Typography>
        )}
        {finding && <StateMessage text={t('posts.finding')} />}
        {listReady && (
          <PostList
            key={view.seq}
            anchor={view.anchor}
            focusCommentId={view.anchor.kind === 'post' ? focusCommentId : undefined}
            listRef={listRef}
            posts={posts}
            myId={myId}
            lastReadAtOpen={lastReadAtOpen}
            hasOlder={query.hasNextPage}
            hasNewer={query.hasPreviousPage}
            loadingOlder={query.isFetchingNextPage}
            loadingNewer={query.isFetchingPreviousPage}
            onLoadOlder={loadOlder}
            onLoadNewer={loadNewer}
            onJumpFirst={jumpFirst}
            onJumpLatest={jumpLatest}
            onAtBottom={onAtBottom}
          />
        )}
      </Box>
      {newPostsChip && (
        <Chip
          color="secondary"
          label={t('posts.newPosts')}
          onClick={() => {
            setNewPostsChip(false);
            void jumpTo('newest');
          }}
          sx={{ alignSelf: 'center', mt: -5, mb: 1, zIndex: 1, boxShadow: 2 }}
        />
      )}
      {topic.data.abilities.post ? (
        <Composer
          key={topicId}
          topicId={topicId}
          myId={myId}
          canAnnounce={topic.data.abilities.announce}
          onPosted={onPosted}
        />
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
