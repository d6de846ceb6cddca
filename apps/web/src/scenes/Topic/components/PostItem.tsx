import type { Post } from '@btalk/contracts';
import { MAX_POST_LENGTH } from '@btalk/contracts/constants';
import ChatBubbleOutline from '@mui/icons-material/ChatBubbleOutline';
import NotificationsActive from '@mui/icons-material/NotificationsActive';
import NotificationsOff from '@mui/icons-material/NotificationsOff';
import PushPin from '@mui/icons-material/PushPin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import { keyframes } from '@mui/material/styles';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { memo, useDeferredValue, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyOnFirstUse } from '../../../components/lazyOnFirstUse.tsx';
import { Markdown } from '../../../components/Markdown.tsx';
import { PersonAvatar } from '../../../components/PersonAvatar.tsx';
import { PersonButton } from '../../../components/PersonCard/PersonButton.tsx';
import { fullTime, shortTime } from '../../../components/time.ts';
import { dialogs } from '../../../stores/dialogs.ts';
import { Attachments } from './AttachmentView.tsx';
import { Comments } from './Comments.tsx';
import { EditedButton } from './EditedButton.tsx';
import { EditTextDialog } from './EditTextDialog.tsx';
import { PostAnnouncement, usePostSeen } from './PostAnnouncement.tsx';
import { PostMenu } from './PostMenu.tsx';
import { Reactions } from './Reactions.tsx';
import { usePostActions } from './usePostActions.ts';

// The history dialog loads when someone first opens a post's "edited".
const PostHistoryDialog = lazyOnFirstUse(() => import('./PostHistoryDialog.tsx'));

/** The bell of a post (SPEC.md section 4): bell-ring = notifications from it, bell-off = none. */
function Bell({ post, onToggle }: { post: Post; onToggle: () => void }) {
  const { t } = useTranslation('topic');
  const ringing = post.bell === 'ring';
  const label = ringing ? t('bell.ring') : t('bell.off');
  return (
    <Tooltip title={label}>
      <IconButton size="small" aria-label={label} aria-pressed={ringing} onClick={onToggle}>
        {ringing ? (
          <NotificationsActive fontSize="small" color="primary" />
        ) : (
          <NotificationsOff fontSize="small" />
        )}
      </IconButton>
    </Tooltip>
  );
}

/**
 * The place of a small icon button (30 px square, its baseline where the button's is) until the
 * button is drawn: plain elements and inline styles, so it costs next to nothing and moves nothing.
 */
function IconButtonSpace() {
  return (
    <span style={{ display: 'inline-flex', padding: 5 }}>
      <span style={{ display: 'block', width: 20, height: 20 }} />
    </span>
  );
}

/** The linked post's background: marked at once, fading out over a few seconds (the bar stays). */
const markFade = keyframes`
  from { background-color: rgba(143, 5, 98, 0.16); }
  to { background-color: transparent; }
`;

/**
 * One post: author photo and name, time, body, attachments, reactions, comments, bell and menu.
 * Memoised: the virtualised list draws its rows again as it measures and scrolls, and a post whose
 * data did not change need not be drawn again.
 */
export const PostItem = memo(function PostItem({
  post,
  myId,
  highlighted = false,
  focusCommentId,
  setSize,
  describedBy,
}: {
  post: Post;
  myId: string | undefined;
  /** The post a link pointed at: marked until the next visit. */
  highlighted?: boolean;
  /** A comment of this post a link pointed at: the comments open on it. */
  focusCommentId?: string;
  /** How many posts the feed has (`aria-setsize`; -1 when not known); the post's number is its place. */
  setSize?: number;
  /** The id of what describes the post besides its content (the "new since" divider above it). */
  describedBy?: string;
}) {
  const { t } = useTranslation('topic');
  const actions = usePostActions(post);
  const [editing, setEditing] = useState(false);
  const [history, setHistory] = useState(false);
  const [showComments, setShowComments] = useState(Boolean(focusCommentId));
  useEffect(() => {
    if (focusCommentId) setShowComments(true);
  }, [focusCommentId]);
  const deleted = post.deletedAt !== null;
  // An important post the reader is asked about counts as seen once it has been on their screen.
  const articleRef = useRef<HTMLElement>(null);
  usePostSeen(articleRef, post, myId);
  // The post is drawn first with its text and the places of its buttons, then completed (bell, menu,
  // reactions) in a low-priority render that React splits into short pieces: a long topic's first
  // screen on a phone does not block the page for the buttons' many components.
  const complete = useDeferredValue(true, false);

  const remove = async () => {
    const yes = await dialogs.confirm({
      title: t('post.deleteTitle'),
      text: t('post.deleteText'),
      confirmLabel: t('post.delete'),
    });
    if (yes) actions.remove.mutate();
  };

  return (
    <Box
      component="article"
      ref={articleRef}
      id={`post-${post.number}`}
      aria-label={t('post.label', { name: post.author.displayName })}
      aria-current={highlighted ? 'location' : undefined}
      aria-posinset={setSize === undefined ? undefined : post.number}
      aria-setsize={setSize}
      aria-describedby={describedBy}
      // Focusable, not in the tab order: the linked post takes the focus, so a screen reader starts
      // reading there, and J and K move it from post to post.
      tabIndex={-1}
      sx={{
        display: 'flex',
        gap: 1.5,
        px: { xs: 1, sm: 2 },
        py: 1.5,
        outline: 'none',
        '&:focus-visible': { boxShadow: (theme) => `inset 0 0 0 2px ${theme.palette.primary.main}` },
        ...(highlighted && {
          animation: `${markFade} 4s ease-out 1s both`,
          boxShadow: (theme) => `inset 3px 0 ${theme.palette.secondary.main}`,
          '@media (prefers-reduced-motion: reduce)': { animation: 'none', bgcolor: 'action.selected' },
        }),
      }}
    >
      <PersonButton
        person={post.author}
        decorative
        style={{ alignSelf: 'flex-start', borderRadius: '50%', lineHeight: 0 }}
      >
        <PersonAvatar person={post.author} />
      </PersonButton>
      <Box sx={{ flexGrow: 1, minWidth: 0 }}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', columnGap: 1 }}>
          <PersonButton person={post.author}>
            <Typography component="span" sx={{ fontWeight: 700 }}>
              {post.author.displayName}
            </Typography>
          </PersonButton>
          <Typography
            component="time"
            variant="caption"
            color="text.secondary"
            dateTime={post.createdAt}
            title={fullTime(post.createdAt)}
          >
            {shortTime(post.createdAt)}
          </Typography>
          {post.editedAt && !deleted && (
            <EditedButton editedAt={post.editedAt} onOpen={() => setHistory(true)} />
          )}
          {post.pinnedAt && !deleted && (
            <Typography
              variant="caption"
              color="secondary"
              sx={{ display: 'inline-flex', alignItems: 'center' }}
            >
              <PushPin sx={{ fontSize: 14, mr: 0.25 }} aria-hidden />
              {t('post.pinned')}
            </Typography>
          )}
          <Box sx={{ flexGrow: 1 }} />
          {complete ? (
            <>
              {!deleted && (
                <Bell
                  post={post}
                  onToggle={() => actions.bell.mutate(post.bell === 'ring' ? 'off' : 'ring')}
                />
              )}
              <PostMenu
                post={post}
                myId={myId}
                onEdit={() => setEditing(true)}
                onDelete={remove}
                onPin={(p) => actions.pin.mutate(p)}
              />
            </>
          ) : (
            <>
              {!deleted && <IconButtonSpace />}
              <IconButtonSpace />
            </>
          )}
        </Box>
        {deleted ? (
          <Typography color="text.secondary" sx={{ fontStyle: 'italic' }}>
            {t('post.deleted')}
          </Typography>
        ) : (
          <>
            {post.body && <Markdown text={post.body} />}
            <Attachments attachments={post.attachments} />
            {post.announcement && <PostAnnouncement post={post} myId={myId} />}
            <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mt: 0.5 }}>
              {complete ? (
                <Reactions
                  subject="post"
                  reactions={post.reactions}
                  myId={myId}
                  canReact={post.abilities.react}
                  onToggle={(emoji, mine) =>
                    actions.react.mutate({ emoji, mine, clientId: crypto.randomUUID() })
                  }
                />
              ) : (
                post.abilities.react && <IconButtonSpace />
              )}
              <Button
                size="small"
                startIcon={<ChatBubbleOutline fontSize="small" />}
                aria-expanded={showComments}
                onClick={() => setShowComments((s) => !s)}
              >
                {t('comments.toggle', { count: post.commentCount })}
              </Button>
            </Box>
          </>
        )}
        {showComments && !deleted && <Comments post={post} myId={myId} focusCommentId={focusCommentId} />}
      </Box>
      {history && <PostHistoryDialog post={{ ...post, kind: 'post' }} onClose={() => setHistory(false)} />}
      {editing && (
        <EditTextDialog
          title={t('post.editTitle')}
          initial={post.body}
          maxLength={MAX_POST_LENGTH}
          onSave={(text) => actions.edit.mutateAsync(text)}
          onClose={() => setEditing(false)}
        />
      )}
    </Box>
  );
});
