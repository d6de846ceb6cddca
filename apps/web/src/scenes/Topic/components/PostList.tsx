import type { Post } from '@btalk/contracts';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Typography from '@mui/material/Typography';
import { type Ref, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { type Components, Virtuoso, type VirtuosoHandle } from 'react-virtuoso';
import { PostItem } from './PostItem.tsx';

/** Props of the post list. */
export interface PostListProps {
  posts: Post[];
  myId: string | undefined;
  /** The last-read number when the topic was opened: the divider goes above the first newer post. */
  lastReadAtOpen: number;
  hasOlder: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
  /** Whether the bottom of the list (the newest post) is in view. */
  onAtBottom: (atBottom: boolean) => void;
  listRef: Ref<VirtuosoHandle>;
  /** A post a link pointed at (loaded): the list opens on it and marks it. */
  focusNumber?: number;
  /** A comment of that post the link pointed at: its comments open on it. */
  focusCommentId?: string;
}

// A feed: assistive technology reads the posts as articles that load as one scrolls.
const List: Components<Post, HeaderContext>['List'] = ({ ref, context: _context, ...rest }) => (
  <div ref={ref} role="feed" {...rest} />
);

/** What the list's header needs: whether older posts are still to load. */
interface HeaderContext {
  hasOlder: boolean;
}

/** Above the oldest loaded post: older ones are on their way, or this is the beginning. */
function ListHeader({ context }: { context?: HeaderContext }) {
  const { t } = useTranslation('topic');
  return (
    <Typography variant="caption" color="text.secondary" sx={{ display: 'block', textAlign: 'center', p: 1 }}>
      {context?.hasOlder ? t('posts.loadingOlder') : t('posts.beginning')}
    </Typography>
  );
}

/**
 * The posts as a chat: oldest at the top, newest at the bottom, virtualised. Posts are numbered
 * without gaps in a topic, so the oldest loaded post's number is Virtuoso's `firstItemIndex`: loading
 * older posts lowers it by exactly the number prepended and the view stays where it was.
 */
export function PostList({
  posts,
  myId,
  lastReadAtOpen,
  hasOlder,
  loadingOlder,
  onLoadOlder,
  onAtBottom,
  listRef,
  focusNumber,
  focusCommentId,
}: PostListProps) {
  const { t } = useTranslation('topic');
  const firstNew = useMemo(
    () => posts.find((p) => p.number > lastReadAtOpen && p.author.id !== myId && lastReadAtOpen >= 0)?.number,
    [posts, lastReadAtOpen, myId],
  );
  const firstIndex = posts[0]?.number ?? 1;
  const focusIndex = focusNumber === undefined ? -1 : posts.findIndex((p) => p.number === focusNumber);
  const startAt =
    focusIndex >= 0
      ? focusIndex
      : firstNew
        ? posts.findIndex((p) => p.number === firstNew)
        : posts.length - 1;
  const align = focusIndex >= 0 ? 'center' : firstNew ? 'start' : 'end';
  return (
    <Virtuoso<Post, HeaderContext>
      context={{ hasOlder }}
      ref={listRef}
      style={{ flexGrow: 1 }}
      aria-label={t('posts.label')}
      data={posts}
      firstItemIndex={firstIndex}
      initialTopMostItemIndex={{ index: Math.max(0, startAt), align }}
      computeItemKey={(_i, post) => post.id}
      startReached={() => {
        if (hasOlder && !loadingOlder) onLoadOlder();
      }}
      followOutput={(atBottom) => (atBottom ? 'smooth' : false)}
      atBottomStateChange={onAtBottom}
      components={{
        List,
        Header: ListHeader,
      }}
      itemContent={(_index, post) => (
        <Box>
          {post.number === firstNew && (
            <Divider
              role="separator"
              sx={{
                color: 'secondary.main',
                typography: 'caption',
                '&::before, &::after': { borderColor: 'secondary.main' },
              }}
            >
              {t('posts.newSince')}
            </Divider>
          )}
          <PostItem
            post={post}
            myId={myId}
            highlighted={post.number === focusNumber}
            focusCommentId={post.number === focusNumber ? focusCommentId : undefined}
          />
        </Box>
      )}
    />
  );
}
