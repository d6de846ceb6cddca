import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { NewUserRow, UserRow } from '../db/schema.ts';
import { newId, now } from '../ids.ts';
import { buildUser } from './factories.ts';
import type { TestServer } from './server.ts';

/** A person with a valid access token, as tests use them. */
export interface SignedIn {
  user: UserRow;
  token: string;
  /** `{ authorization: 'Bearer …' }`, to spread into a request's headers. */
  headers: { authorization: string };
}

/** How the person of `signedIn` starts. */
export interface SignedInOptions {
  /**
   * Whether the person has accepted the current terms of use (default true). With false, every route
   * except sign-in, session, terms and their own call-tree answer (with the pending list) answers
   * them 4404.
   */
  acceptedTerms?: boolean;
}

/**
 * Creates a person (overrides as in buildUser) who has accepted the current terms of use (unless
 * `{ acceptedTerms: false }`), and signs an access token for them.
 */
export async function signedIn(
  server: TestServer,
  overrides: Partial<NewUserRow> = {},
  options: SignedInOptions = {},
): Promise<SignedIn> {
  const db = server.ctx.db.kysely;
  let user = await buildUser(db, overrides);
  if (options.acceptedTerms !== false) user = await acceptCurrentTerms(db, user);
  const token = await sessionToken(server, user.id);
  return { user, token, headers: { authorization: `Bearer ${token}` } };
}

/** Opens a session row for the person (kept when `sessionId` already has one); answers its id. */
export async function openSession(
  db: Kysely<Database>,
  userId: string,
  sessionId = newId(),
): Promise<string> {
  const at = now();
  await db
    .insertInto('sessions')
    .values({
      id: sessionId,
      user_id: userId,
      kind: 'web',
      directory_access_token: 'unused in tests',
      directory_access_expires_at: at,
      directory_refresh_token: null,
      created_at: at,
      refreshed_at: at,
      revoked_at: null,
      revoked_reason: null,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  return sessionId;
}

/**
 * An access token of an open session of the person (the session row is made when `sessionId` has
 * none yet): the server refuses tokens whose session does not exist or has ended.
 */
export async function sessionToken(
  server: Pick<TestServer, 'ctx'>,
  userId: string,
  options: { sessionId?: string; issuedAtSeconds?: number } = {},
): Promise<string> {
  const sessionId = await openSession(server.ctx.db.kysely, userId, options.sessionId);
  return server.ctx.tokens.sign(userId, sessionId, options.issuedAtSeconds);
}
/** Records that a person accepted the current terms of use, as the terms API would; returns the updated row. */
export async function acceptCurrentTerms(db: Kysely<Database>, user: UserRow): Promise<UserRow> {
  const current = await db
    .selectFrom('terms_versions')
    .select('version')
    .orderBy('version', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!current) return user;
  await db
    .insertInto('terms_acceptances')
    .values({
      id: newId(),
      user_id: user.id,
      version: current.version,
      client_kind: 'web',
      accepted_at: now(),
    })
    .execute();
  return db
    .updateTable('users')
    .set({ terms_accepted_version: current.version })
    .where('id', '=', user.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}
