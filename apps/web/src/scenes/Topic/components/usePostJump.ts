import type { Post, PostPage } from '@btalk/contracts';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import type { PostPageAt } from '../../../api/posts.ts';
import { dialogs } from '../../../stores/dialogs.ts';

/** The post number a `#post-<number>` link (the post menu's "Copy link") points at, or null. */
export function postNumberFromHash(hash: string): number | null {
  const match = /^#post-(\d{1,12})$/.exec(hash);
  const number = match ? Number(match[1]) : 0;
  return number >= 1 ? number : null;
}

/** Where following a post link stands. */
export interface PostJump {
  number: number;
  state: 'finding' | 'found' | 'notFound';
}

/** What the jump needs of the topic's posts query. */
export interface JumpablePosts {
  posts: Post[];
  loaded: boolean;
  /** Whether newer posts than the loaded ones exist. */
  hasNewer: boolean;
  /** Replaces the loaded posts with one page (here: the page around the post). */
  open(at: PostPageAt): Promise<PostPage>;
}

/**
 * Follows a `#post-<number>` link: when the post is not among the loaded ones, the page around it is
 * loaded in one request (the list then pages older and newer from there), however far back it is.
 * Posts are numbered without gaps, so a number above the newest is not (yet) in the topic.
 */
export function usePostJump({ posts, loaded, hasNewer, open }: JumpablePosts) {
  const { t } = useTranslation('topic');
  const { hash } = useLocation();
  const target = postNumberFromHash(hash);
  // Finding from the first render: the posts may already be there then, and must not be drawn
  // anywhere but at the linked post.
  const [jump, setJump] = useState<PostJump | null>(() =>
    target === null ? null : { number: target, state: 'finding' },
  );
  // The number whose page was asked for: one request per link followed.
  const asked = useRef<number | null>(null);
  useEffect(() => {
    setJump(target === null ? null : { number: target, state: 'finding' });
    asked.current = null;
  }, [target]);

  useEffect(() => {
    if (jump?.state !== 'finding' || !loaded) return;
    const notFound = (text: string) => {
      setJump({ number: jump.number, state: 'notFound' });
      dialogs.showSnack(text);
    };
    const newest = posts[posts.length - 1]?.number ?? 0;
    if (posts.some((p) => p.number === jump.number)) setJump({ number: jump.number, state: 'found' });
    else if (jump.number > newest && !hasNewer) notFound(t('posts.linkNotFound'));
    else if (asked.current !== jump.number) {
      asked.current = jump.number;
      // Found: the next run sees the post among the loaded ones.
      open({ around: jump.number }).then(
        (page) => {
          if (!page.items.some((p) => p.number === jump.number)) notFound(t('posts.linkNotFound'));
        },
        () => notFound(t('posts.failed')),
      );
    }
  }, [jump, posts, loaded, hasNewer, open, t]);
  return jump;
}
