import { useEffect } from 'react';
import { focusComposer } from './TopicHeader.tsx';

/**
 * Whether a key press is the person typing. The layout's `ShortcutKeys` has the same test; not shared,
 * so that the topic's chunk does not pull the layout's listener into a chunk of its own.
 */
function isTyping(event: KeyboardEvent): boolean {
  const target = event.target as HTMLElement | null;
  return Boolean(
    target?.closest?.('input, textarea, select, [contenteditable=""], [contenteditable="true"]'),
  );
}

/** The posts drawn now, oldest first (the list draws those near the view). */
function drawnPosts(): HTMLElement[] {
  return Array.from(document.querySelectorAll<HTMLElement>('[role="feed"] article[id^="post-"]'));
}

/** The post to move to from the focus (or, with nothing focused in the feed, from the view). */
function nextPost(forward: boolean): HTMLElement | undefined {
  const posts = drawnPosts();
  const current = posts.findIndex((post) => post.contains(document.activeElement));
  if (current >= 0) return posts[current + (forward ? 1 : -1)];
  // From outside the feed: the first post in view going down, the last one in view going up.
  const feed = document.querySelector('[role="feed"]')?.parentElement?.parentElement;
  const view = feed?.getBoundingClientRect();
  const inView = posts.filter((post) => {
    const box = post.getBoundingClientRect();
    return !view || (box.bottom > view.top && box.top < view.bottom);
  });
  return forward ? inView[0] : inView.at(-1);
}

/**
 * The topic's keys, outside text fields (the "Keyboard shortcuts" dialog lists them): `J` and `K`
 * move the focus to the next and the previous post, as in a feed (WAI-ARIA's feed pattern), `C`
 * to the composer's message box.
 */
export function usePostKeys() {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || isTyping(e)) return;
      // Not behind an open dialog or menu.
      if (document.querySelector('.MuiModal-root:not(.MuiModal-hidden)')) return;
      const key = e.key.toLowerCase();
      if (key === 'c') {
        if (focusComposer()) e.preventDefault();
        return;
      }
      if (key !== 'j' && key !== 'k') return;
      const post = nextPost(key === 'j');
      if (!post) return;
      e.preventDefault();
      post.focus({ preventScroll: true });
      post.scrollIntoView({ block: 'nearest' });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
