import type { AdminPersonAbilities, AdminPersonUpdate } from '@btalk/contracts';
import type { UserRow } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';

/**
 * Who may manage people in the People screen (`/api/admin/people`), as plain rules:
 * - only enabled administrators list people and change them;
 * - an enabled member may be made an administrator; an administrator's role may be taken away
 *   (yours too, while another enabled administrator remains: the command checks that under a lock);
 * - an administrator may disable anyone but themselves (ask another administrator);
 * - a person disabled in BTalk may be enabled again; one the directory disabled is enabled there.
 */
export type PersonAction = 'list' | 'makeAdmin' | 'removeAdmin' | 'disable' | 'enable';

/** Whether `user` may do `action` (to `person`, for the changes). */
export function can(user: UserRow, action: PersonAction, person?: UserRow): boolean {
  if (user.disabled || user.role !== 'admin') return false;
  if (action === 'list') return true;
  if (!person) return false;
  switch (action) {
    case 'makeAdmin':
      return person.role === 'member' && !person.disabled;
    case 'removeAdmin':
      return person.role === 'admin';
    case 'disable':
      return !person.disabled && person.id !== user.id;
    case 'enable':
      return person.disabled === 1 && person.disabled_source !== 'directory';
  }
}

/** What the caller may do to a person, for the People screen. */
export function personAbilities(user: UserRow, person: UserRow): AdminPersonAbilities {
  return {
    makeAdmin: can(user, 'makeAdmin', person),
    removeAdmin: can(user, 'removeAdmin', person),
    disable: can(user, 'disable', person),
    enable: can(user, 'enable', person),
  };
}

/** The actions a change asks for; setting what already holds asks for nothing. */
function actionsOf(person: UserRow, change: AdminPersonUpdate): PersonAction[] {
  const actions: PersonAction[] = [];
  if (change.role !== undefined && change.role !== person.role) {
    actions.push(change.role === 'admin' ? 'makeAdmin' : 'removeAdmin');
  }
  if (change.disabled !== undefined && change.disabled !== Boolean(person.disabled)) {
    actions.push(change.disabled ? 'disable' : 'enable');
  }
  return actions;
}

/** Throws 403 unless `user` may list people. */
export function authorize(user: UserRow, action: 'list'): void;
/**
 * Throws 403 unless `user` may make `change` to `person`, 404 when the person is absent, and 409
 * when the person's state refuses it (enabling someone the directory disabled).
 */
export function authorize(
  user: UserRow,
  action: 'update',
  person: UserRow | undefined,
  change: AdminPersonUpdate,
): asserts person is UserRow;
export function authorize(
  user: UserRow,
  action: 'list' | 'update',
  person?: UserRow,
  change?: AdminPersonUpdate,
): void {
  if (!can(user, 'list')) {
    throw new AppError('forbidden', 'Only administrators can manage people: ask an administrator.');
  }
  if (action === 'list') return;
  if (!person) throw new AppError('notFound', 'No such person: reload the list.');
  for (const wanted of actionsOf(person, change ?? {})) {
    if (can(user, wanted, person)) continue;
    if (wanted === 'disable') {
      throw new AppError('forbidden', 'You cannot disable yourself: ask another administrator.');
    }
    if (wanted === 'enable') {
      throw new AppError(
        'conflict',
        'The directory disabled this person: enable them in the directory; the next directory sync enables them here.',
      );
    }
    throw new AppError('conflict', 'A disabled person cannot be made an administrator: enable them first.');
  }
}
