import type { Notification, NotificationList } from '@btalk/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { notificationKeys } from './queryKeys.ts';

/**
 * Changes to the bell's cached list (`notificationKeys.list()`), from the realtime events of room
 * `user:<id>` and from this tab's own "mark read". Each is idempotent: a replayed event changes
 * nothing more. Without a cached list there is nothing to change (the next fetch has it all).
 */

function update(qc: QueryClient, change: (list: NotificationList) => NotificationList): void {
  qc.setQueryData<NotificationList>(notificationKeys.list(), (list) => (list ? change(list) : list));
  // A fetch on its way may have been answered before this change and would overwrite it: it is
  // cancelled and made again.
  if (qc.isFetching({ queryKey: notificationKeys.list() }) > 0) {
    void qc.invalidateQueries({ queryKey: notificationKeys.list() });
  }
}

/** A new notification: it goes first (once), and counts as unread when it is. */
export function addNotification(qc: QueryClient, notification: Notification): void {
  update(qc, (list) => {
    if (list.items.some((n) => n.id === notification.id)) return list;
    return {
      ...list,
      items: [notification, ...list.items],
      unreadCount: list.unreadCount + (notification.readAt === null ? 1 : 0),
    };
  });
}

/**
 * Notifications taken back (their post or comment was deleted; the server takes back only unread
 * ones): gone, and no longer counted. Ones beyond the cached page are in the server's count but not
 * here: then the list is fetched again for the count.
 */
export function withdrawNotifications(qc: QueryClient, ids: readonly string[]): void {
  const gone = new Set(ids);
  let missing = false;
  update(qc, (list) => {
    const removed = list.items.filter((n) => gone.has(n.id));
    missing = removed.length < gone.size;
    if (removed.length === 0) return list;
    const unreadRemoved = removed.filter((n) => n.readAt === null).length;
    return {
      ...list,
      items: list.items.filter((n) => !gone.has(n.id)),
      unreadCount: Math.max(0, list.unreadCount - unreadRemoved),
    };
  });
  if (missing) void qc.invalidateQueries({ queryKey: notificationKeys.list() });
}

/**
 * Notifications marked read, here or on another tab or device: `ids` null means all of them;
 * `unreadCount` is the server's count after the change, when known.
 */
export function markNotificationsRead(
  qc: QueryClient,
  ids: readonly string[] | null,
  unreadCount: number | null,
  at: string = new Date().toISOString(),
): void {
  const marked = ids === null ? null : new Set(ids);
  update(qc, (list) => {
    let newlyRead = 0;
    const items = list.items.map((n) => {
      if (n.readAt !== null || (marked !== null && !marked.has(n.id))) return n;
      newlyRead += 1;
      return { ...n, readAt: at };
    });
    const count = unreadCount ?? (marked === null ? 0 : Math.max(0, list.unreadCount - newlyRead));
    if (newlyRead === 0 && count === list.unreadCount) return list;
    return { ...list, items, unreadCount: count };
  });
}
