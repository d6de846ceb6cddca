import type { DeliveryRow, UserRow } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';

/**
 * Who may do what with the outbox of notification deliveries: only administrators list deliveries
 * (the dead letters) and send a dead one again; only a dead delivery can be sent again.
 */
export type NotificationDeliveryAction = 'list' | 'retry';

/** Whether `user` may do `action` (with `delivery`, for retrying). */
export function can(user: UserRow, action: NotificationDeliveryAction, delivery?: DeliveryRow): boolean {
  if (user.disabled || user.role !== 'admin') return false;
  switch (action) {
    case 'list':
      return true;
    case 'retry':
      return delivery === undefined || delivery.status === 'dead';
  }
}

/**
 * Throws 403 unless `user` is an administrator, and for retries 404 when the delivery is absent and
 * 409 when it is not dead.
 */
export function authorize(user: UserRow, action: 'list'): void;
/** Throws 403 unless `user` is an administrator, 404 when `delivery` is absent, 409 unless it is dead. */
export function authorize(
  user: UserRow,
  action: 'retry',
  delivery: DeliveryRow | undefined,
): asserts delivery is DeliveryRow;
export function authorize(
  user: UserRow,
  action: NotificationDeliveryAction,
  delivery?: DeliveryRow | null,
): void {
  if (!can(user, action)) {
    throw new AppError(
      'forbidden',
      'Only administrators can see and retry notification deliveries: ask an administrator.',
    );
  }
  if (action !== 'retry') return;
  if (!delivery) throw new AppError('notFound', 'No such notification delivery: reload the list.');
  if (!can(user, action, delivery)) {
    throw new AppError(
      'conflict',
      `This delivery is ${delivery.status}, not dead: only dead deliveries can be retried. Reload the list.`,
    );
  }
}
