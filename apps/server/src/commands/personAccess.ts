import type { Role } from '@btalk/contracts';
import { type Kysely, sql } from 'kysely';
import { type AuditClient, audit } from '../audit/audit.ts';
import { isPostgres } from '../db/engine.ts';
import type { Database } from '../db/index.ts';
import type { UserRow, UserUpdate } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { now } from '../ids.ts';
import { recordAccessChanged, recordUserDisabled } from './accessEvents.ts';
import { leaveEveryAnnouncementAudience } from './announcementAcknowledger.ts';

/** Arbitrary constant key of the PostgreSQL advisory lock that orders changes to who is an admin. */
const ADMINS_LOCK_KEY = 727_012;

/**
 * Orders every change to who is an enabled administrator: two administrators removing each other at
 * once would otherwise both see the other one remain. (SQLite runs one write transaction at a time.)
 */
export async function lockAdmins(trx: Kysely<Database>): Promise<void> {
  if (isPostgres(trx)) await sql`select pg_advisory_xact_lock(${ADMINS_LOCK_KEY})`.execute(trx);
}

/** Whether an enabled administrator other than `userId` exists. Call after `lockAdmins`. */
export async function anotherEnabledAdmin(trx: Kysely<Database>, userId: string): Promise<boolean> {
  const other = await trx
    .selectFrom('users')
    .select('id')
    .where('role', '=', 'admin')
    .where('disabled', '=', 0)
    .where('id', '!=', userId)
    .limit(1)
    .executeTakeFirst();
  return other !== undefined;
}

/**
 * Ends every session of a person: each refresh-token family stops working (so do their access
 * tokens, which name their session), and access tokens issued until now are refused anyway.
 */
export async function everySessionEnder(
  trx: Kysely<Database>,
  userId: string,
  reason: string,
): Promise<void> {
  const at = now();
  await trx
    .updateTable('sessions')
    .set({ revoked_at: at, revoked_reason: reason })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
  await trx.updateTable('users').set({ tokens_valid_after: at }).where('id', '=', userId).execute();
}

async function update(trx: Kysely<Database>, id: string, set: UserUpdate): Promise<UserRow> {
  return trx
    .updateTable('users')
    .set({ ...set, updated_at: now() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Disables a person (their sessions end, their sockets close) and audits it. */
async function disable(
  trx: Kysely<Database>,
  person: UserRow,
  by: 'directory' | 'btalk',
  actorId: string | null,
  reason: string,
  client: AuditClient | null,
): Promise<UserRow> {
  // First (the announcements' rows are locked before the event log, as in every announcement command):
  // someone who left the organisation is no longer counted as "not yet" by any roll-up.
  await leaveEveryAnnouncementAudience(trx, person.id);
  await everySessionEnder(trx, person.id, reason);
  const row = await update(trx, person.id, { disabled: 1, disabled_source: by });
  await recordUserDisabled(trx, person.id, reason, actorId);
  await audit(trx, {
    actorId,
    action: 'person.disabled',
    target: `user:${person.id}`,
    details: { by, reason },
    client,
  });
  return row;
}

function reload(trx: Kysely<Database>, id: string): Promise<UserRow> {
  return trx.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** What an administrator changes about a person in the People screen. */
export interface PersonAccessChange {
  role?: Role | undefined;
  disabled?: boolean | undefined;
}

/**
 * An administrator's change to a person's role or disabled state (the route has authorized them).
 * A role set here is BTalk's from then on: directory sync keeps it. Refuses (409) to leave the
 * organisation without an enabled administrator, and to enable a person the directory disabled.
 * Every change is audited and recorded in the person's room, so their open sockets re-check at once.
 */
export async function personAccessUpdater(
  trx: Kysely<Database>,
  actor: UserRow,
  personId: string,
  change: PersonAccessChange,
  client: AuditClient,
): Promise<UserRow> {
  await lockAdmins(trx);
  // Read again under the lock: another administrator may have changed the person meanwhile.
  let person = await reload(trx, personId);
  const losesAdmin =
    person.role === 'admin' && !person.disabled && (change.role === 'member' || change.disabled === true);
  if (losesAdmin && !(await anotherEnabledAdmin(trx, person.id))) {
    throw new AppError(
      'conflict',
      'This is the last enabled administrator: make someone else an administrator first, so that the organisation keeps one.',
    );
  }
  if (change.disabled === false && person.disabled && person.disabled_source === 'directory') {
    throw new AppError(
      'conflict',
      'The directory disabled this person: enable them in the directory; the next directory sync enables them here.',
    );
  }
  if (change.role !== undefined && change.role !== person.role) {
    const from = person.role;
    person = await update(trx, person.id, { role: change.role, role_source: 'btalk' });
    await recordAccessChanged(trx, person.id, `role ${change.role}`, actor.id);
    await audit(trx, {
      actorId: actor.id,
      action: 'person.role_changed',
      target: `user:${person.id}`,
      details: { from, to: change.role, by: 'btalk' },
      client,
    });
  }
  if (change.disabled === true && !person.disabled) {
    person = await disable(trx, person, 'btalk', actor.id, 'disabled by an administrator', client);
  } else if (change.disabled === false && person.disabled) {
    person = await update(trx, person.id, { disabled: 0, disabled_source: null });
    await audit(trx, {
      actorId: actor.id,
      action: 'person.enabled',
      target: `user:${person.id}`,
      details: { by: 'btalk' },
      client,
    });
  }
  return person;
}

/** What a directory says about a person, at their sign-in or in a listing of its people. */
export interface DirectoryAccess {
  /** Whether the directory gives them BTalk's admin app role; null when it does not say. */
  admin: boolean | null;
  /** Whether the directory's account is enabled (false also for people missing from a full listing). */
  enabled: boolean;
}

/** What applying the directory's word changed. */
export interface DirectoryAccessResult {
  person: UserRow;
  roleChanged: boolean;
  disabled: boolean;
  enabled: boolean;
  /** The directory took the role away from the last enabled administrator, who keeps it. */
  keptLastAdmin: boolean;
}

/**
 * Brings a person's role and disabled state in line with the directory, where the directory decided
 * them: the admin role follows the app role unless an administrator set the role in BTalk; a person
 * disabled (or gone) in the directory is disabled with every session ended, and enabled again when
 * the directory enables them, unless an administrator disabled them in BTalk. The last enabled
 * administrator keeps the role (logged in the audit), so the organisation is never left without one.
 * Call after `lockAdmins` in the same transaction.
 */
export async function directoryAccessApplier(
  trx: Kysely<Database>,
  person: UserRow,
  said: DirectoryAccess,
  via: 'sign-in' | 'sync',
): Promise<DirectoryAccessResult> {
  const result: DirectoryAccessResult = {
    person,
    roleChanged: false,
    disabled: false,
    enabled: false,
    keptLastAdmin: false,
  };
  const wanted: Role | null = said.admin === null ? null : said.admin ? 'admin' : 'member';
  if (wanted && person.role_source === 'directory' && wanted !== person.role) {
    const removal = person.role === 'admin' && !person.disabled && said.enabled;
    if (removal && !(await anotherEnabledAdmin(trx, person.id))) {
      result.keptLastAdmin = true;
      await audit(trx, {
        actorId: null,
        action: 'person.role_kept',
        target: `user:${person.id}`,
        details: { reason: 'last enabled administrator', by: 'directory', via },
        client: null,
      });
    } else {
      const from = person.role;
      result.person = await update(trx, person.id, { role: wanted });
      result.roleChanged = true;
      await recordAccessChanged(trx, person.id, `role ${wanted} (directory)`, null);
      await audit(trx, {
        actorId: null,
        action: 'person.role_changed',
        target: `user:${person.id}`,
        details: { from, to: wanted, by: 'directory', via },
        client: null,
      });
    }
  }
  const current = result.person;
  if (!said.enabled && !current.disabled) {
    result.person = await disable(
      trx,
      current,
      'directory',
      null,
      `disabled in the directory (${via})`,
      null,
    );
    result.disabled = true;
  } else if (said.enabled && current.disabled && current.disabled_source === 'directory') {
    result.person = await update(trx, current.id, { disabled: 0, disabled_source: null });
    result.enabled = true;
    await audit(trx, {
      actorId: null,
      action: 'person.enabled',
      target: `user:${current.id}`,
      details: { by: 'directory', via },
      client: null,
    });
  }
  return result;
}
