import type { Post } from '@btalk/contracts';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { dialogs } from '../../../stores/dialogs.ts';

/** The post number a `#post-<number>` link (the post menu's "Copy link") points at, or null. */
export function postNumberFromHash(hash: string): number | null {
  const match = /^#post-(\d{1,12})$/.exec(hash);
  const number = match ? Number(match[1]) : 0;
  return number >= 1 ? number : null;
}

/** Older pages are loaded this many posts at a time while looking for a linked post. */
export const JUMP_PAGE_SIZE = 100;
/** How far back a link is followed: at most this many pages of JUMP_PAGE_SIZE posts. */
export const MAX_JUMP_PAGES = 60;

/** Where following a post link stands. */
export interface PostJump {
  number: number;
  state: 'finding' | 'found' | 'notFound' | 'tooFar';
}

/** What the jump needs of the topic's posts query. */
export interface JumpablePosts {
  posts: Post[];
  loaded: boolean;
  hasOlder: boolean;
  loadingOlder: boolean;
  failed: boolean;
  /** Loads the next older page, `limit` posts long. */
  loadOlder(limit: number): void;
}

/**
 * Follows a `#post-<number>` link: loads older pages (bigger ones than scrolling does) until the
 * post is among the loaded ones, up to MAX_JUMP_PAGES pages; then the list opens on it. Posts are
 * numbered without gaps, so a number above the newest is not (yet) in the topic.
 */
export function usePostJump({ posts, loaded, hasOlder, loadingOlder, failed, loadOlder }: JumpablePosts) {
  const { t } = useTranslation('topic');
  const { hash } = useLocation();
  const target = postNumberFromHash(hash);
  const [jump, setJump] = useState<PostJump | null>(null);
  // Pages asked for, and how many posts were loaded when the last one was: one request per page.
  const requested = useRef({ pages: 0, at: -1 });
  useEffect(() => {
    setJump(target === null ? null : { number: target, state: 'finding' });
    requested.current = { pages: 0, at: -1 };
  }, [target]);

  useEffect(() => {
    if (jump?.state !== 'finding' || !loaded || loadingOlder) return;
    const oldest = posts[0]?.number;
    const newest = posts[posts.length - 1]?.number ?? 0;
    const give = (state: 'notFound' | 'tooFar') => {
      setJump({ number: jump.number, state });
      dialogs.showSnack(state === 'tooFar' ? t('posts.linkTooFar') : t('posts.linkNotFound'));
    };
    if (jump.number > newest) give('notFound');
    else if (oldest !== undefined && jump.number >= oldest) setJump({ number: jump.number, state: 'found' });
    else if (!hasOlder || failed) give('notFound');
    else if (requested.current.at === posts.length) return;
    else if (requested.current.pages >= MAX_JUMP_PAGES) give('tooFar');
    else {
      requested.current = { pages: requested.current.pages + 1, at: posts.length };
      loadOlder(JUMP_PAGE_SIZE);
    }
  }, [jump, posts, loaded, hasOlder, loadingOlder, failed, loadOlder, t]);
  return jump;
}
