import type { UserRow } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';

/**
 * Who may do what with the terms of use:
 * - everyone signed in may read the terms and accept the current version (accepting twice is harmless);
 * - only administrators may publish a new version and see every version with its acceptance counts.
 */
export type TermsAction = 'read' | 'accept' | 'publish' | 'listVersions';

/** Whether `user` may do `action` with the terms. */
export function can(user: UserRow, action: TermsAction): boolean {
  switch (action) {
    case 'read':
    case 'accept':
      return !user.disabled;
    case 'publish':
    case 'listVersions':
      return !user.disabled && user.role === 'admin';
  }
}

const refusals: Record<TermsAction, string> = {
  read: 'This account may not read the terms of use: ask an administrator.',
  accept: 'This account may not accept the terms of use: ask an administrator.',
  publish: 'Only administrators can publish terms of use: ask an administrator to publish this version.',
  listVersions: 'Only administrators can see the versions of the terms of use and their acceptances.',
};

/** Throws 403 (envelope code 4030) unless `user` may do `action` with the terms. */
export function authorize(user: UserRow, action: TermsAction): void {
  if (!can(user, action)) throw new AppError('forbidden', refusals[action]);
}
