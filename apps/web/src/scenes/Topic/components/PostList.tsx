import type { Post } from '@btalk/contracts';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Typography from '@mui/material/Typography';
import { memo, type Ref, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Components, Virtuoso, type VirtuosoHandle } from 'react-virtuoso';
import { JumpButtons } from './JumpButtons.tsx';
import { PostItem } from './PostItem.tsx';

/** Where the list opens: on a linked post, at the topic's first post, or at the newest (or first unread). */
export type ListAnchor = { kind: 'post'; number: number } | { kind: 'oldest' } | { kind: 'newest' };

/** Props of the post list. */
export interface PostListProps {
  posts: Post[];
  myId: string | undefined;
  /** The last-read number when the topic was opened: the divider goes above the first newer post. */
  lastReadAtOpen: number;
  anchor: ListAnchor;
  hasOlder: boolean;
  hasNewer: boolean;
  loadingOlder: boolean;
  loadingNewer: boolean;
  onLoadOlder: () => void;
  onLoadNewer: () => void;
  onJumpFirst: () => void;
  onJumpLatest: () => void;
  /** Whether the bottom of the list (the newest loaded post) is in view. */
  onAtBottom: (atBottom: boolean) => void;
  listRef: Ref<VirtuosoHandle>;
  /** A comment of the linked post the link pointed at: its comments open on it. */
  focusCommentId?: string;
}

// A feed, named "Posts": assistive technology reads the posts as articles that load as one scrolls.
const List: Components<Post, EdgeContext>['List'] = ({ ref, context, ...rest }) => (
  <div ref={ref} role="feed" aria-label={context?.label} aria-busy={context?.busy} {...rest} />
);

/** What the list and its ends need: its name, whether posts are loading, whether more are beyond the ends. */
interface EdgeContext {
  label: string;
  busy: boolean;
  hasOlder: boolean;
  hasNewer: boolean;
}

/** Above the oldest loaded post: older ones are on their way, or this is the beginning. */
function ListHeader({ context }: { context?: EdgeContext }) {
  const { t } = useTranslation('topic');
  return (
    <Typography variant="caption" color="text.secondary" sx={{ display: 'block', textAlign: 'center', p: 1 }}>
      {context?.hasOlder ? t('posts.loadingOlder') : t('posts.beginning')}
    </Typography>
  );
}

/** Below the newest loaded post, while newer ones are on their way. */
function ListFooter({ context }: { context?: EdgeContext }) {
  const { t } = useTranslation('topic');
  if (!context?.hasNewer) return null;
  return (
    <Typography variant="caption" color="text.secondary" sx={{ display: 'block', textAlign: 'center', p: 1 }}>
      {t('posts.loadingNewer')}
    </Typography>
  );
}

/** The "new since" divider's id: the first unread post is described by it. */
const NEW_SINCE_ID = 'posts-new-since';

/**
 * One row: the "new since" divider above the first unread post, then the post. The divider is not
 * part of any post; it is drawn for the eye and hidden from assistive technology, which reads it as
 * the first unread post's description instead, since a feed holds nothing but its articles.
 * Re-renders only when its post changes.
 */
const PostRow = memo(function PostRow({
  post,
  myId,
  firstNew,
  marked,
  focusCommentId,
  setSize,
}: {
  post: Post;
  myId: string | undefined;
  firstNew: boolean;
  marked: boolean;
  focusCommentId: string | undefined;
  setSize: number;
}) {
  const { t } = useTranslation('topic');
  return (
    <Box>
      {firstNew && (
        <Divider
          id={NEW_SINCE_ID}
          aria-hidden
          role="presentation"
          data-divider="new-since"
          sx={(theme) => ({
            color: 'secondary.main',
            typography: 'caption',
            '&::before, &::after': { borderColor: 'secondary.main' },
            // The brand magenta is too dark to read on the dark background: its light variant there.
            ...theme.applyStyles('dark', { color: 'secondary.light' }),
          })}
        >
          {t('posts.newSince')}
        </Divider>
      )}
      <PostItem
        post={post}
        myId={myId}
        highlighted={marked}
        focusCommentId={focusCommentId}
        setSize={setSize}
        describedBy={firstNew ? NEW_SINCE_ID : undefined}
      />
    </Box>
  );
});

/**
 * Gives the linked post the keyboard and screen reader focus once it is drawn (without scrolling).
 * The list may draw it more than once while it measures its rows, so for a second after it first
 * appears the focus is put back on it, as long as nothing else (the reader) has taken it.
 */
function useFocusPost(number: number | undefined) {
  useEffect(() => {
    if (number === undefined) return;
    let until = Number.POSITIVE_INFINITY;
    const giveUp = performance.now() + 10_000;
    let frame = 0;
    const focus = () => {
      const element = document.getElementById(`post-${number}`);
      const free = document.activeElement === null || document.activeElement === document.body;
      if (element && until === Number.POSITIVE_INFINITY) until = performance.now() + 1000;
      if (element && free) element.focus({ preventScroll: true });
      const now = performance.now();
      if (now < until && now < giveUp) frame = requestAnimationFrame(focus);
    };
    frame = requestAnimationFrame(focus);
    return () => cancelAnimationFrame(frame);
  }, [number]);
}

/** What a reader does to move through the posts: a wheel or touchpad, a finger, a key, the scroll bar. */
const READER_INPUT = ['wheel', 'touchmove', 'keydown', 'pointerdown'] as const;

/**
 * Whether the reader has moved the list themselves. The list's own moves do not count: placing a
 * linked post in the middle of the view scrolls it too, and must not ask for the pages either side
 * (opening a link from a notification costs one request, however many people open it at once).
 */
function useReaderScrolled() {
  const scrolled = useRef(false);
  const detach = useRef<(() => void) | null>(null);
  const scrollerRef = useCallback((element: HTMLElement | Window | null) => {
    detach.current?.();
    detach.current = null;
    if (!(element instanceof HTMLElement)) return;
    const moved = () => {
      scrolled.current = true;
    };
    for (const type of READER_INPUT) element.addEventListener(type, moved, { capture: true, passive: true });
    detach.current = () => {
      for (const type of READER_INPUT) element.removeEventListener(type, moved, { capture: true });
    };
  }, []);
  return { scrolled, scrollerRef };
}

/**
 * The next page is asked for when the reader comes within this many posts of the loaded end, so it
 * has usually arrived before they reach it; only the posts in view are drawn, which keeps the first
 * paint of a long topic on a phone cheap.
 */
const PREFETCH_POSTS = 15;

/**
 * The posts as a chat: oldest at the top, newest at the bottom, virtualised. Posts are numbered
 * without gaps in a topic, so the oldest loaded post's number is Virtuoso's `firstItemIndex`: loading
 * older posts lowers it by exactly the number prepended and the view stays where it was; newer posts
 * are appended. It opens at its anchor: on a linked post (centred, marked and focused), at the first
 * post, or at the first unread or newest post.
 */
export function PostList({
  posts,
  myId,
  lastReadAtOpen,
  anchor,
  hasOlder,
  hasNewer,
  loadingOlder,
  loadingNewer,
  onLoadOlder,
  onLoadNewer,
  onJumpFirst,
  onJumpLatest,
  onAtBottom,
  listRef,
  focusCommentId,
}: PostListProps) {
  const { t } = useTranslation('topic');
  const [atTop, setAtTop] = useState(false);
  const [atBottom, setAtBottom] = useState(true);
  const { scrolled, scrollerRef } = useReaderScrolled();
  const firstNew = useMemo(
    () => posts.find((p) => p.number > lastReadAtOpen && p.author.id !== myId && lastReadAtOpen >= 0)?.number,
    [posts, lastReadAtOpen, myId],
  );
  const focusNumber = anchor.kind === 'post' ? anchor.number : undefined;
  useFocusPost(focusNumber);
  const firstIndex = posts[0]?.number ?? 1;
  // Posts are numbered without gaps: the newest loaded is the count, unless newer ones are still to
  // load (-1: unknown, as WAI-ARIA's feed says).
  const setSize = hasNewer ? -1 : (posts.at(-1)?.number ?? 0);
  const focusIndex = focusNumber === undefined ? -1 : posts.findIndex((p) => p.number === focusNumber);
  const firstNewIndex = firstNew === undefined ? -1 : posts.findIndex((p) => p.number === firstNew);
  const [startAt, align] =
    focusIndex >= 0
      ? [focusIndex, 'center' as const]
      : anchor.kind === 'oldest'
        ? [0, 'start' as const]
        : firstNewIndex >= 0
          ? [firstNewIndex, 'start' as const]
          : [posts.length - 1, 'end' as const];
  return (
    <Box sx={{ position: 'relative', flexGrow: 1, minHeight: 0, display: 'flex', flexDirection: 'column' }}>
      <Virtuoso<Post, EdgeContext>
        context={{ label: t('posts.label'), busy: loadingOlder || loadingNewer, hasOlder, hasNewer }}
        ref={listRef}
        style={{ flexGrow: 1 }}
        data={posts}
        firstItemIndex={firstIndex}
        initialTopMostItemIndex={{ index: Math.max(0, startAt), align }}
        computeItemKey={(_i, post) => post.id}
        scrollerRef={scrollerRef}
        rangeChanged={({ startIndex, endIndex }) => {
          // Not before the reader scrolls: opening the topic or a link costs one request, and the list
          // settles on its first position undisturbed.
          if (!scrolled.current) return;
          // Indexes count from `firstItemIndex`, the oldest loaded post's number.
          if (hasOlder && !loadingOlder && startIndex - firstIndex < PREFETCH_POSTS) onLoadOlder();
          if (hasNewer && !loadingNewer && firstIndex + posts.length - 1 - endIndex < PREFETCH_POSTS)
            onLoadNewer();
        }}
        startReached={() => {
          if (hasOlder && !loadingOlder) onLoadOlder();
        }}
        endReached={() => {
          if (hasNewer && !loadingNewer) onLoadNewer();
        }}
        followOutput={(bottom) => (bottom && !hasNewer ? 'smooth' : false)}
        atTopStateChange={setAtTop}
        atBottomStateChange={(bottom) => {
          setAtBottom(bottom);
          onAtBottom(bottom);
        }}
        components={{ List, Header: ListHeader, Footer: ListFooter }}
        itemContent={(_index, post) => (
          <PostRow
            post={post}
            myId={myId}
            firstNew={post.number === firstNew}
            marked={post.number === focusNumber}
            focusCommentId={post.number === focusNumber ? focusCommentId : undefined}
            setSize={setSize}
          />
        )}
      />
      <JumpButtons
        showFirst={hasOlder || !atTop}
        showLatest={hasNewer || !atBottom}
        onJumpFirst={onJumpFirst}
        onJumpLatest={onJumpLatest}
      />
    </Box>
  );
}
