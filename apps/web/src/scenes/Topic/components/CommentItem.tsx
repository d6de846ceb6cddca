import type { Comment } from '@btalk/contracts';
import { MAX_COMMENT_LENGTH } from '@btalk/contracts/constants';
import MoreVert from '@mui/icons-material/MoreVert';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyOnFirstUse } from '../../../components/lazyOnFirstUse.tsx';
import { Markdown } from '../../../components/Markdown.tsx';
import { PersonAvatar } from '../../../components/PersonAvatar.tsx';
import { PersonButton } from '../../../components/PersonCard/PersonButton.tsx';
import { fullTime, shortTime } from '../../../components/time.ts';
import { dialogs } from '../../../stores/dialogs.ts';
import { EditedButton } from './EditedButton.tsx';
import { EditTextDialog } from './EditTextDialog.tsx';
import { Reactions } from './Reactions.tsx';
import { useCommentActions } from './usePostActions.ts';

// The history dialog loads when someone first opens a comment's "edited".
const PostHistoryDialog = lazyOnFirstUse(() => import('./PostHistoryDialog.tsx'));

/** One comment under a post: author, time, text, reactions, and edit/delete for who may. */
export function CommentItem({
  comment,
  myId,
  highlighted = false,
}: {
  comment: Comment;
  myId: string | undefined;
  /** The comment a link pointed at: marked. */
  highlighted?: boolean;
}) {
  const { t } = useTranslation('topic');
  const actions = useCommentActions(comment);
  const anchor = useRef<HTMLButtonElement>(null);
  const [menu, setMenu] = useState(false);
  const [editing, setEditing] = useState(false);
  const [history, setHistory] = useState(false);
  const deleted = comment.deletedAt !== null;
  const remove = async () => {
    setMenu(false);
    const yes = await dialogs.confirm({
      title: t('comment.deleteTitle'),
      text: t('comment.deleteText'),
      confirmLabel: t('comment.delete'),
    });
    if (yes) actions.remove.mutate();
  };
  const canMenu = !deleted && (comment.abilities.edit || comment.abilities.delete);
  return (
    <Box
      component="li"
      id={`comment-${comment.id}`}
      aria-label={t('comment.label', { name: comment.author.displayName })}
      aria-current={highlighted ? 'location' : undefined}
      sx={{
        display: 'flex',
        gap: 1,
        py: 1,
        ...(highlighted && {
          px: 1,
          mx: -1,
          borderRadius: 1,
          bgcolor: 'action.selected',
          boxShadow: (theme) => `inset 3px 0 ${theme.palette.secondary.main}`,
        }),
      }}
    >
      <PersonButton
        person={comment.author}
        decorative
        style={{ alignSelf: 'flex-start', borderRadius: '50%', lineHeight: 0 }}
      >
        <PersonAvatar person={comment.author} size={28} />
      </PersonButton>
      <Box sx={{ flexGrow: 1, minWidth: 0 }}>
        <Box sx={{ display: 'flex', alignItems: 'baseline', columnGap: 1, flexWrap: 'wrap' }}>
          <PersonButton person={comment.author}>
            <Typography component="span" variant="body2" sx={{ fontWeight: 700 }}>
              {comment.author.displayName}
            </Typography>
          </PersonButton>
          <Typography
            component="time"
            variant="caption"
            color="text.secondary"
            dateTime={comment.createdAt}
            title={fullTime(comment.createdAt)}
          >
            {shortTime(comment.createdAt)}
          </Typography>
          {comment.editedAt && !deleted && (
            <EditedButton editedAt={comment.editedAt} onOpen={() => setHistory(true)} />
          )}
          <Box sx={{ flexGrow: 1 }} />
          {canMenu && (
            <IconButton
              ref={anchor}
              size="small"
              aria-label={t('comment.menu')}
              onClick={() => setMenu(true)}
            >
              <MoreVert fontSize="small" />
            </IconButton>
          )}
        </Box>
        {deleted ? (
          <Typography variant="body2" color="text.secondary" sx={{ fontStyle: 'italic' }}>
            {t('comment.deleted')}
          </Typography>
        ) : (
          <>
            <Box sx={{ typography: 'body2' }}>
              <Markdown text={comment.body} />
            </Box>
            <Reactions
              subject="comment"
              reactions={comment.reactions}
              myId={myId}
              canReact={comment.abilities.react}
              onToggle={(emoji, mine) => actions.react.mutate({ emoji, mine, clientId: crypto.randomUUID() })}
            />
          </>
        )}
      </Box>
      <Menu anchorEl={anchor.current} open={menu} onClose={() => setMenu(false)}>
        {comment.abilities.edit && (
          <MenuItem
            onClick={() => {
              setMenu(false);
              setEditing(true);
            }}
          >
            {t('comment.edit')}
          </MenuItem>
        )}
        {comment.abilities.delete && <MenuItem onClick={remove}>{t('comment.delete')}</MenuItem>}
      </Menu>
      {history && (
        <PostHistoryDialog post={{ ...comment, kind: 'comment' }} onClose={() => setHistory(false)} />
      )}
      {editing && (
        <EditTextDialog
          title={t('comment.editTitle')}
          initial={comment.body}
          maxLength={MAX_COMMENT_LENGTH}
          onSave={(text) => actions.edit.mutateAsync(text)}
          onClose={() => setEditing(false)}
        />
      )}
    </Box>
  );
}
