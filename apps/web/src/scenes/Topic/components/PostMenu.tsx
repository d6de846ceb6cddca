import type { Post, Topic } from '@btalk/contracts';
import MoreVert from '@mui/icons-material/MoreVert';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { upsertPost } from '../../../api/postCache.ts';
import { queryKeys } from '../../../api/queryKeys.ts';
import { lazyOnFirstUse } from '../../../components/lazyOnFirstUse.tsx';
import { useServices } from '../../../services.tsx';
import { dialogs } from '../../../stores/dialogs.ts';

// The acknowledgement request's dialog loads when an author first opens it.
const AnnouncementDialog = lazyOnFirstUse(() => import('./AnnouncementDialog.tsx'));

/** The address of a post: the topic with the post's number as the hash. */
export function postLink(post: Post): string {
  return `${window.location.origin}/topics/${post.topicId}#post-${post.number}`;
}

/** Props of a post's menu. */
export interface PostMenuProps {
  post: Post;
  /** The signed-in person (their own posts may ask for acknowledgement). */
  myId?: string;
  onEdit: () => void;
  onDelete: () => void;
  onPin: (pinned: boolean) => void;
}

/**
 * A post's menu: edit, delete, pin, copy link, and on one's own post in a topic where one may
 * announce, the acknowledgement request (each only where the caller may).
 */
export function PostMenu({ post, myId, onEdit, onDelete, onPin }: PostMenuProps) {
  const { t } = useTranslation(['topic', 'announcements']);
  const ta = (key: string) => t(key, { ns: 'announcements' });
  const { api } = useServices();
  const queryClient = useQueryClient();
  const anchor = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  const [requesting, setRequesting] = useState(false);
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
  const askStop = async () => {
    const yes = await dialogs.confirm({
      title: ta('stop.title'),
      text: ta('stop.text'),
      confirmLabel: ta('stop.confirm'),
    });
    if (!yes) return;
    try {
      upsertPost(queryClient, await api.announcements.unmark(post.id));
      dialogs.showSnack(ta('stop.done'));
    } catch (error) {
      dialogs.showError(error);
    }
  };
  const deleted = post.deletedAt !== null;
  // Read when the menu opens: a closed menu (every post has one) subscribes to nothing.
  const announce =
    open &&
    !deleted &&
    myId !== undefined &&
    post.author.id === myId &&
    queryClient.getQueryData<Topic>(queryKeys.topics.detail(post.topicId))?.abilities.announce === true;
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
          {announce && (
            <MenuItem onClick={act(() => setRequesting(true))}>
              {post.announcement ? ta('menu.change') : ta('menu.request')}
            </MenuItem>
          )}
          {announce && post.announcement && (
            <MenuItem onClick={act(() => void askStop())}>{ta('menu.stop')}</MenuItem>
          )}
          <MenuItem onClick={act(copy)}>{t('post.copyLink')}</MenuItem>
          {post.abilities.delete && !deleted && (
            <MenuItem onClick={act(onDelete)}>{t('post.delete')}</MenuItem>
          )}
        </Menu>
      )}
      {requesting && <AnnouncementDialog post={post} onClose={() => setRequesting(false)} />}
    </>
  );
}
