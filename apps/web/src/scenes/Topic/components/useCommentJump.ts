import type { Comment } from '@btalk/contracts';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { dialogs } from '../../../stores/dialogs.ts';

/** How many pages of older comments a link loads while looking for its comment. */
export const MAX_COMMENT_PAGES = 20;

// The link (location and comment) last scrolled to: the virtual list may mount the post again as
// one scrolls, and that must not pull the reader back to the comment.
let scrolledFor = '';

/** What the jump needs of a post's comments query. */
export interface JumpableComments {
  items: Comment[];
  loaded: boolean;
  pages: number;
  hasOlder: boolean;
  loadingOlder: boolean;
  loadOlder: () => void;
}

/**
 * Follows `?comment=<id>` to a comment of an open post: loads older pages of comments until it is
 * among them (up to MAX_COMMENT_PAGES), then scrolls it into view once; says so when it is gone.
 * Answers whether the comment is shown.
 */
export function useCommentJump(commentId: string | undefined, c: JumpableComments): boolean {
  const { t } = useTranslation('topic');
  const { key } = useLocation();
  const found = commentId !== undefined && c.items.some((item) => item.id === commentId);
  const gaveUp = useRef('');
  const link = `${key}:${commentId}`;
  const { loaded, hasOlder, loadingOlder, pages, loadOlder } = c;
  useEffect(() => {
    if (!commentId || !loaded || found || loadingOlder) return;
    if (hasOlder && pages < MAX_COMMENT_PAGES) loadOlder();
    else if (gaveUp.current !== link) {
      gaveUp.current = link;
      dialogs.showSnack(t('comments.linkNotFound'));
    }
  }, [commentId, loaded, found, loadingOlder, hasOlder, pages, loadOlder, link, t]);
  useEffect(() => {
    if (!found || !commentId || scrolledFor === link) return;
    scrolledFor = link;
    // After the comments are laid out (and the virtual list measured the grown post).
    const frame = requestAnimationFrame(() =>
      document.getElementById(`comment-${commentId}`)?.scrollIntoView({ block: 'center' }),
    );
    return () => cancelAnimationFrame(frame);
  }, [found, commentId, link]);
  return found;
}
