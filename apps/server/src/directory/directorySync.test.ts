import { AccessEventName } from '@btalk/contracts';
import { afterEach, expect, it } from 'vitest';
import { directoryPeopleSyncer } from '../commands/directoryPeopleSyncer.ts';
import { personAccessUpdater } from '../commands/personAccess.ts';
import { transact } from '../commands/transact.ts';
import { describeEachDatabase } from '../test/db.ts';
import {
  directorySignIn,
  type ListeningTestServer,
  postCode,
  useListeningTestServer,
} from '../test/listening.ts';
import { applyDirectoryListing, developmentListing, syncDirectoryPeople } from './index.ts';
import { changeDevelopmentPeople, personByEmail, restoreDevelopmentPeople } from './people.ts';
import { DirectorySyncScheduler } from './syncScheduler.ts';

// biome-ignore lint/suspicious/noExplicitAny: tests read JSON answers loosely, as inject().json() does.
type Json = Record<string, any>;

/** Changes people of the development directory, as its administrator would in Entra ID. */
function inDirectory(
  changes: Record<string, { role?: 'admin' | 'member'; accountEnabled?: boolean } | 'deleted'>,
) {
  changeDevelopmentPeople((list) =>
    list.flatMap((p) => {
      const change = changes[p.email];
      if (change === 'deleted') return [];
      return [change ? { ...p, ...change } : p];
    }),
  );
}

/** BTalk's own sync, reading the development directory through its Graph subset (app token, paged). */
async function syncThroughGraph(server: ListeningTestServer) {
  return applyDirectoryListing(server.ctx, await server.ctx.directory.listPeople(null));
}

async function signIn(server: ListeningTestServer, email: string) {
  const { callback, browser } = await directorySignIn(server, email);
  const res = await postCode(server, browser, callback);
  expect(res.status).toBe(200);
  return ((await res.json()) as Json).data as { accessToken: string; refreshToken: string; user: Json };
}

describeEachDatabase('directory sync: admin roles and disabled accounts', (kind) => {
  const server = useListeningTestServer(kind);
  const db = () => server.ctx.db.kysely;
  const row = (email: string) =>
    db().selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
  const eventsOf = async (userId: string) =>
    (await db().selectFrom('events').select('type').where('room', '=', `user:${userId}`).execute()).map(
      (e) => e.type,
    );
  const auditsOf = async (userId: string) =>
    db()
      .selectFrom('audit_log')
      .selectAll()
      .where('target', '=', `user:${userId}`)
      .orderBy('created_at')
      .execute();
  const me = (token: string) => server.api('/api/me', { headers: { authorization: `Bearer ${token}` } });
  const refresh = (refreshToken: string) =>
    server.api('/api/auth/refresh', {
      method: 'POST',
      body: JSON.stringify({ refreshToken, redirectUri: server.ctx.config.directory.redirectUri }),
    });

  afterEach(() => restoreDevelopmentPeople());

  it('takes the admin role from a person whose directory app role was removed, and keeps one given in BTalk', async () => {
    inDirectory({ 'somchai@btalk.test': { role: 'admin' } });
    await syncThroughGraph(server);
    const somchai = await row('somchai@btalk.test');
    expect(somchai).toMatchObject({ role: 'admin', role_source: 'directory' });
    const admin = await row('admin@btalk.test');
    const malee = await row('malee@btalk.test');
    await transact(server.ctx, (trx) =>
      personAccessUpdater(trx, admin, malee.id, { role: 'admin' }, { kind: 'web', userAgent: null }),
    );

    // The directory takes the app role away from Somchai; nobody in the directory gives it to Malee.
    restoreDevelopmentPeople();
    const summary = await syncThroughGraph(server);
    expect(summary?.roleChanges).toBe(1);
    expect(await row('somchai@btalk.test')).toMatchObject({ role: 'member', role_source: 'directory' });
    expect(await row('malee@btalk.test')).toMatchObject({ role: 'admin', role_source: 'btalk' });
    expect(await row('admin@btalk.test')).toMatchObject({ role: 'admin', role_source: 'directory' });
    // Somchai's open sockets re-check their rights at once; the change is in the audit log.
    expect(await eventsOf(somchai.id)).toContain(AccessEventName.accessChanged);
    const audits = await auditsOf(somchai.id);
    expect(audits.map((a) => [a.action, a.actor_id, JSON.parse(a.details)])).toEqual([
      ['person.role_changed', null, { from: 'member', to: 'admin', by: 'directory', via: 'sync' }],
      ['person.role_changed', null, { from: 'admin', to: 'member', by: 'directory', via: 'sync' }],
    ]);
  });

  it("follows the token's app roles at sign-in too", async () => {
    inDirectory({ 'david@btalk.test': { role: 'admin' } });
    expect((await signIn(server, 'david@btalk.test')).user.role).toBe('admin');
    restoreDevelopmentPeople();
    expect((await signIn(server, 'david@btalk.test')).user.role).toBe('member');
    expect(await row('david@btalk.test')).toMatchObject({ role: 'member', role_source: 'directory' });
  });

  it('disables people disabled or deleted in the directory, ends every session, and enables them again', async () => {
    const orapin = await signIn(server, 'orapin@btalk.test');
    const pongsak = await signIn(server, 'pongsak@btalk.test');
    const laura = await signIn(server, 'laura@btalk.test');
    expect((await me(orapin.accessToken)).status).toBe(200);
    // An administrator disabled Laura in BTalk: the directory's word does not enable her.
    const admin = await row('admin@btalk.test');
    await transact(server.ctx, (trx) =>
      personAccessUpdater(trx, admin, laura.user.id, { disabled: true }, { kind: 'web', userAgent: null }),
    );

    inDirectory({ 'orapin@btalk.test': { accountEnabled: false }, 'pongsak@btalk.test': 'deleted' });
    const summary = await syncThroughGraph(server);
    expect(summary?.disabled).toBe(2);
    for (const [email, session] of [
      ['orapin@btalk.test', orapin],
      ['pongsak@btalk.test', pongsak],
    ] as const) {
      const person = await row(email);
      expect(person).toMatchObject({ disabled: 1, disabled_source: 'directory' });
      // Every session ended: the refresh token and the access token are refused.
      expect((await refresh(session.refreshToken)).status).toBe(401);
      expect((await me(session.accessToken)).status).toBe(401);
      const sessions = await db()
        .selectFrom('sessions')
        .select('revoked_at')
        .where('user_id', '=', person.id)
        .execute();
      expect(sessions.every((s) => s.revoked_at !== null)).toBe(true);
      expect(await eventsOf(person.id)).toContain(AccessEventName.userDisabled);
      expect((await auditsOf(person.id)).map((a) => a.action)).toContain('person.disabled');
    }
    // The directory refuses Orapin's sign-in too.
    await expect(signIn(server, 'orapin@btalk.test')).rejects.toThrow(/sign-in form answered 401/);

    restoreDevelopmentPeople();
    expect((await syncThroughGraph(server))?.enabled).toBe(2);
    expect(await row('orapin@btalk.test')).toMatchObject({ disabled: 0, disabled_source: null });
    expect(await row('pongsak@btalk.test')).toMatchObject({ disabled: 0, disabled_source: null });
    expect(await row('laura@btalk.test')).toMatchObject({ disabled: 1, disabled_source: 'btalk' });
    expect((await me((await signIn(server, 'orapin@btalk.test')).accessToken)).status).toBe(200);
  });

  it('disables nobody missing from a listing that did not finish', async () => {
    await syncDirectoryPeople(server.ctx);
    const partial = { people: developmentListing().people.slice(0, 5), complete: false };
    const summary = await transact(server.ctx, (trx) =>
      directoryPeopleSyncer(trx, server.ctx.config.directory.issuer, partial),
    );
    expect(summary.disabled).toBe(0);
    expect(await row('worawut@btalk.test')).toMatchObject({ disabled: 0 });
  });

  it('keeps the admin role of the last enabled administrator, and says so in the audit log', async () => {
    await syncDirectoryPeople(server.ctx);
    // Only admin@ is an enabled administrator now (earlier tests' BTalk admins are taken away first).
    const admin = await row('admin@btalk.test');
    for (const other of await db().selectFrom('users').selectAll().where('role', '=', 'admin').execute()) {
      if (other.id === admin.id) continue;
      await transact(server.ctx, (trx) =>
        personAccessUpdater(trx, admin, other.id, { role: 'member' }, { kind: 'web', userAgent: null }),
      );
    }
    inDirectory({ 'admin@btalk.test': { role: 'member' } });
    const summary = await syncDirectoryPeople(server.ctx);
    expect(summary?.keptLastAdmin).toBe(1);
    expect(await row('admin@btalk.test')).toMatchObject({ role: 'admin' });
    expect((await auditsOf(admin.id)).map((a) => a.action)).toContain('person.role_kept');
  });

  it('runs on a schedule, one instance per interval', async () => {
    const a = new DirectorySyncScheduler({ ctx: server.ctx, intervalMs: 60_000, holder: 'a' });
    const b = new DirectorySyncScheduler({ ctx: server.ctx, intervalMs: 60_000, holder: 'b' });
    inDirectory({ 'krit@btalk.test': { accountEnabled: false } });
    expect(await a.tick()).toMatchObject({ disabled: 1 });
    expect(await b.tick()).toBeNull();
    expect(await row('krit@btalk.test')).toMatchObject({ disabled: 1, disabled_source: 'directory' });
    await Promise.all([a.stop(), b.stop()]);
    expect(personByEmail('krit@btalk.test')?.accountEnabled).toBe(false);
  });
});
