import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Database } from '../db/index.ts';

/*
 * Who finds whom in the one people search (`GET /api/users`: the people picker of topics and
 * mentions, and the person search of the call-tree screens), as plain rules:
 * - everyone signed in who has accepted the terms of use searches (the authenticate hook and the
 *   terms gate); admins and event managers need no more to build trees, so there is no second,
 *   narrower search;
 * - only active people are found: disabled people never appear;
 * - everyone found is shown the same way to every caller (`presentUser`: name, e-mail, department,
 *   job title, language, role), nothing more (no phone, no manager);
 * - a profile card (`GET /api/users/:userId`, opened from a name) is the organisation's directory
 *   entry, which every colleague may read: anyone signed in sees anyone's card, phone and manager
 *   included; a disabled person's card still opens (their posts keep their name), marked disabled.
 */

/** Restricts a query on `users` to the people the search may find: active ones. */
export function findablePeople() {
  return (eb: ExpressionBuilder<Database, 'users'>): Expression<SqlBool> => eb('users.disabled', '=', 0);
}
