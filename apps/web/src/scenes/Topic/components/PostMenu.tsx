import type { Post } from '@btalk/contracts';
import MoreVert from '@mui/icons-material/MoreVert';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dialogs } from '../../../stores/dialogs.ts';

/** The address of a post: the topic with the post's number as the hash. */
export function postLink(post: Post): string {
  return `${window.location.origin}/topics/${post.topicId}#post-${post.number}`;
}

/** Props of a post's menu. */
export interface PostMenuProps {
  post: Post;
  onEdit: () => void;
  onDelete: () => void;
  onPin: (pinned: boolean) => void;
}

/** A post's menu: edit, delete, pin, copy link (each only where the caller may). */
export function PostMenu({ post, onEdit, onDelete, onPin }: PostMenuProps) {
  const { t } = useTranslation('topic');
  const anchor = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  const act = (action: () => void) => () => {
    setOpen(false);
    action();
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(postLink(post));
      dialogs.showSnack(t('post.linkCopied'));
    } catch {
      dialogs.showSnack(postLink(post));
    }
  };
  const deleted = post.deletedAt !== null;
  return (
    <>
      <IconButton ref={anchor} size="small" aria-label={t('post.menu')} onClick={() => setOpen(true)}>
        <MoreVert fontSize="small" />
      </IconButton>
      {/* Drawn only while open: every post has a menu, and a closed one still costs its hooks. */}
      {open && (
        <Menu anchorEl={anchor.current} open onClose={() => setOpen(false)}>
          {post.abilities.edit && !deleted && <MenuItem onClick={act(onEdit)}>{t('post.edit')}</MenuItem>}
          {post.abilities.pin && !deleted && (
            <MenuItem onClick={act(() => onPin(post.pinnedAt === null))}>
              {post.pinnedAt ? t('post.unpin') : t('post.pin')}
            </MenuItem>
          )}
          <MenuItem onClick={act(copy)}>{t('post.copyLink')}</MenuItem>
          {post.abilities.delete && !deleted && (
            <MenuItem onClick={act(onDelete)}>{t('post.delete')}</MenuItem>
          )}
        </Menu>
      )}
    </>
  );
}
