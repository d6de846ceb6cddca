import type { PushSubscriptionRow, UserRow } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';

/**
 * Who may do what with browsers' push subscriptions: a person subscribes the browser they use and
 * forgets only their own subscriptions. Another person's subscription answers 404, as if it did not
 * exist, so endpoints reveal nothing.
 */
export type PushSubscriptionAction = 'subscribe' | 'unsubscribe';

/** Whether `user` may do `action` (with `subscription`, for unsubscribing). */
export function can(
  user: UserRow,
  action: PushSubscriptionAction,
  subscription?: PushSubscriptionRow,
): boolean {
  if (user.disabled) return false;
  switch (action) {
    case 'subscribe':
      return true;
    case 'unsubscribe':
      return subscription !== undefined && subscription.user_id === user.id;
  }
}

/** Throws 403 for disabled accounts, and 404 when the subscription is absent or someone else's. */
export function authorize(
  user: UserRow,
  action: PushSubscriptionAction,
  subscription?: PushSubscriptionRow,
): void {
  if (user.disabled) throw new AppError('forbidden', 'This account is disabled: ask an administrator.');
  if (!can(user, action, subscription)) {
    throw new AppError(
      'notFound',
      'This browser is not subscribed to your push notifications: there is nothing to remove.',
    );
  }
}
