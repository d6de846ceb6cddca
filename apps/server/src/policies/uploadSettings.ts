import type { UserRow } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';

/**
 * Who may do what with the upload settings (the refused file types):
 * - administrators may read and change them; nobody else (uploads tell people what they refuse).
 */
export type UploadSettingsAction = 'read' | 'update';

/** Whether `user` may do `action` with the upload settings. */
export function can(user: UserRow, _action: UploadSettingsAction): boolean {
  return !user.disabled && user.role === 'admin';
}

const refusals: Record<UploadSettingsAction, string> = {
  read: 'Only administrators can see the upload settings.',
  update: 'Only administrators can change which file types uploads refuse: ask an administrator.',
};

/** Throws 403 (envelope code 4030) unless `user` may do `action` with the upload settings. */
export function authorize(user: UserRow, action: UploadSettingsAction): void {
  if (!can(user, action)) throw new AppError('forbidden', refusals[action]);
}
