import { useEffect } from 'react';

const PREFIX = /^\(\d+\+?\) /;

/** The tab's title with the unread count in front, `(3) Safety drills · BTalk`; the title alone at 0. */
export function titleWithUnread(title: string, unread: number): string {
  const plain = title.replace(PREFIX, '');
  if (unread <= 0) return plain;
  return `(${unread > 99 ? '99+' : unread}) ${plain}`;
}

/**
 * Keeps the unread count in front of whatever title the screen sets (screens set `document.title`
 * themselves, at any time): a watcher on `<title>` puts the count back after each change, and takes
 * it away when the count is 0 or the layout goes.
 */
export function useUnreadTitle(unread: number): void {
  useEffect(() => {
    const apply = () => {
      const next = titleWithUnread(document.title, unread);
      // Setting the same title again would wake the watcher for nothing.
      if (document.title !== next) document.title = next;
    };
    apply();
    const element = document.querySelector('head > title');
    if (!element) return;
    const watcher = new MutationObserver(apply);
    watcher.observe(element, { childList: true, characterData: true, subtree: true });
    return () => {
      watcher.disconnect();
      document.title = titleWithUnread(document.title, 0);
    };
  }, [unread]);
}
