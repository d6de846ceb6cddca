import type { NotificationRow, UserRow } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';

/**
 * Who may do what with in-app notifications: a person reads and marks only their own. Another
 * person's notification answers 404, as if it did not exist, so ids reveal nothing.
 */
export type NotificationAction = 'list' | 'markRead';

/** Whether `user` may do `action` with `notification` (or with their own list when absent). */
export function can(user: UserRow, action: NotificationAction, notification?: NotificationRow): boolean {
  if (user.disabled) return false;
  switch (action) {
    case 'list':
      return true;
    case 'markRead':
      return notification === undefined || notification.user_id === user.id;
  }
}

/**
 * Throws 403 for disabled accounts, and 404 unless each of `requestedIds` is one of `loaded` (the rows
 * found for those ids) and that row is `user`'s own.
 */
export function authorize(
  user: UserRow,
  action: NotificationAction,
  requestedIds: string[] = [],
  loaded: NotificationRow[] = [],
): void {
  if (user.disabled) throw new AppError('forbidden', 'This account is disabled: ask an administrator.');
  for (const id of requestedIds) {
    const row = loaded.find((n) => n.id === id);
    if (!row || !can(user, action, row)) {
      throw new AppError(
        'notFound',
        `Notification ${id} was not found among yours: reload the list and try again.`,
      );
    }
  }
}
