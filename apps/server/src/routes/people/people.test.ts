import { AccessEventName, type AdminPeoplePage, type AdminPerson, ErrorCode } from '@btalk/contracts';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/db.ts';
import { useTestServer } from '../../test/server.ts';
import { type SignedIn, sessionToken, signedIn } from '../../test/session.ts';
import { as, dataOf } from '../../test/topics.ts';

const URL = '/api/admin/people';

describeEachDatabase('GET /api/admin/people and PATCH /api/admin/people/:personId', (kind) => {
  const server = useTestServer(kind);
  const db = () => server.ctx.db.kysely;
  const row = (id: string) =>
    db().selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const audits = (id: string) =>
    db()
      .selectFrom('audit_log')
      .selectAll()
      .where('target', '=', `user:${id}`)
      .orderBy('created_at')
      .execute();
  const events = async (id: string) =>
    (await db().selectFrom('events').select('type').where('room', '=', `user:${id}`).execute()).map(
      (e) => e.type,
    );
  /** Leaves `keep` the only enabled administrators, as if the others had been made members. */
  const onlyAdmins = async (...keep: SignedIn[]) => {
    await db()
      .updateTable('users')
      .set({ role: 'member' })
      .where('role', '=', 'admin')
      .where(
        'id',
        'not in',
        keep.map((k) => k.user.id),
      )
      .execute();
  };

  it('require authentication', async () => {
    const someone = await signedIn(server);
    for (const res of [
      await as(server, null).get(URL),
      await as(server, null).patch(`${URL}/${someone.user.id}`, { role: 'admin' }),
    ]) {
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe(ErrorCode.unauthenticated);
    }
  });

  it('are for administrators only', async () => {
    const member = await signedIn(server);
    const other = await signedIn(server);
    for (const res of [
      await as(server, member).get(URL),
      await as(server, member).patch(`${URL}/${other.user.id}`, { role: 'admin' }),
      await as(server, member).patch(`${URL}/${member.user.id}`, { role: 'admin' }),
      // Unknown ids too: a non-administrator learns nothing about who exists.
      await as(server, member).patch(`${URL}/no-such-person`, { disabled: true }),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe(ErrorCode.forbidden);
    }
    expect(await row(member.user.id)).toMatchObject({ role: 'member', disabled: 0 });
    expect(await row(other.user.id)).toMatchObject({ role: 'member', disabled: 0 });
  });

  it('refuse bad input with the field and the reason', async () => {
    const admin = await signedIn(server, { role: 'admin' });
    const person = await signedIn(server);
    const cases: Array<
      [Promise<{ statusCode: number; json(): { code: number; details: unknown } }>, string]
    > = [
      [as(server, admin).patch(`${URL}/${person.user.id}`, {}), 'body.role'],
      [as(server, admin).patch(`${URL}/${person.user.id}`, { role: 'owner' }), 'body.role'],
      [as(server, admin).patch(`${URL}/${person.user.id}`, { disabled: 'yes' }), 'body.disabled'],
      [as(server, admin).patch(`${URL}/${person.user.id}`, { role: 'admin', email: 'x' }), 'body.email'],
      [as(server, admin).get(`${URL}?limit=0`), 'query.limit'],
      [as(server, admin).get(`${URL}?cursor=not-a-cursor`), 'cursor'],
    ];
    for (const [pending, field] of cases) {
      const res = await pending;
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe(ErrorCode.validation);
      expect(res.json().details).toEqual([
        expect.objectContaining({ field: expect.stringContaining(field) }),
      ]);
    }
    const missing = await as(server, admin).patch(`${URL}/no-such-person`, { role: 'admin' });
    expect(missing.statusCode).toBe(404);
  });

  it('lists everyone by name, disabled people too, with where the role comes from and what may be done', async () => {
    const admin = await signedIn(server, { role: 'admin', display_name: 'Zz Admin' });
    await signedIn(server, { display_name: 'Zz Member One', department: 'Zz Logistics' });
    await signedIn(server, {
      display_name: 'Zz Member Two',
      department: 'Zz Logistics',
      disabled: 1,
      disabled_source: 'directory',
    });
    await signedIn(server, { display_name: 'Zz Granted', role: 'admin', role_source: 'btalk' });
    const first = dataOf<AdminPeoplePage>(await as(server, admin).get(`${URL}?search=zz&limit=2`));
    expect(first.items.map((p) => p.displayName)).toEqual(['Zz Admin', 'Zz Granted']);
    const second = dataOf<AdminPeoplePage>(
      await as(server, admin).get(`${URL}?search=zz&limit=2&cursor=${first.nextCursor}`),
    );
    expect(second.nextCursor).toBeNull();
    expect(second.items).toEqual([
      expect.objectContaining({
        displayName: 'Zz Member One',
        role: 'member',
        roleSource: 'directory',
        disabled: false,
        disabledSource: null,
        abilities: { makeAdmin: true, removeAdmin: false, disable: true, enable: false },
      }),
      expect.objectContaining({
        displayName: 'Zz Member Two',
        department: 'Zz Logistics',
        disabled: true,
        disabledSource: 'directory',
        // The directory disabled them: they are enabled there, not here.
        abilities: { makeAdmin: false, removeAdmin: false, disable: false, enable: false },
      }),
    ]);
    expect(first.items[0]).toMatchObject({
      roleSource: 'directory',
      abilities: { makeAdmin: false, removeAdmin: true, disable: false, enable: false },
    });
    expect(first.items[1]).toMatchObject({ role: 'admin', roleSource: 'btalk' });
    const logistics = dataOf<AdminPeoplePage>(await as(server, admin).get(`${URL}?search=ZZ%20LOGISTICS`));
    expect(logistics.items).toHaveLength(2);
  });

  it('makes a person an administrator and takes the role away, in BTalk, audited', async () => {
    const admin = await signedIn(server, { role: 'admin' });
    const person = await signedIn(server);
    const made = dataOf<AdminPerson>(
      await as(server, admin).patch(`${URL}/${person.user.id}`, { role: 'admin' }),
    );
    expect(made).toMatchObject({ role: 'admin', roleSource: 'btalk' });
    expect((await as(server, person).get(URL)).statusCode).toBe(200);
    const removed = dataOf<AdminPerson>(
      await as(server, admin).patch(`${URL}/${person.user.id}`, { role: 'member' }),
    );
    expect(removed).toMatchObject({ role: 'member', roleSource: 'btalk' });
    // Their next request is a member's; their sockets were told to re-check at once.
    expect((await as(server, person).get(URL)).statusCode).toBe(403);
    expect(await events(person.user.id)).toEqual([
      AccessEventName.accessChanged,
      AccessEventName.accessChanged,
    ]);
    expect(
      (await audits(person.user.id)).map((a) => [a.action, a.actor_id, JSON.parse(a.details), a.client_kind]),
    ).toEqual([
      ['person.role_changed', admin.user.id, { from: 'member', to: 'admin', by: 'btalk' }, 'web'],
      ['person.role_changed', admin.user.id, { from: 'admin', to: 'member', by: 'btalk' }, 'web'],
    ]);
  });

  it('disables a person, ending every session, and enables them again', async () => {
    const admin = await signedIn(server, { role: 'admin' });
    const person = await signedIn(server);
    const disabled = dataOf<AdminPerson>(
      await as(server, admin).patch(`${URL}/${person.user.id}`, { disabled: true }),
    );
    expect(disabled).toMatchObject({ disabled: true, disabledSource: 'btalk' });
    expect((await as(server, person).get('/api/me')).statusCode).toBe(401);
    const sessions = await db()
      .selectFrom('sessions')
      .select('revoked_at')
      .where('user_id', '=', person.user.id)
      .execute();
    expect(sessions.length).toBeGreaterThan(0);
    expect(sessions.every((s) => s.revoked_at !== null)).toBe(true);
    expect(await events(person.user.id)).toEqual([AccessEventName.userDisabled]);

    const enabled = dataOf<AdminPerson>(
      await as(server, admin).patch(`${URL}/${person.user.id}`, { disabled: false }),
    );
    expect(enabled).toMatchObject({ disabled: false, disabledSource: null });
    // The old session stays ended; a new sign-in works.
    expect((await as(server, person).get('/api/me')).statusCode).toBe(401);
    // As sign-in does, the new token is not older than the moment the sessions ended.
    const { tokens_valid_after } = await row(person.user.id);
    const token = await sessionToken(server, person.user.id, {
      issuedAtSeconds: Math.ceil(Date.parse(tokens_valid_after ?? '') / 1000),
    });
    expect(
      (await server.request({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${token}` } }))
        .statusCode,
    ).toBe(200);
    expect((await audits(person.user.id)).map((a) => a.action)).toEqual([
      'person.disabled',
      'person.enabled',
    ]);
  });

  it('refuses to enable a person the directory disabled, and to disable yourself', async () => {
    const admin = await signedIn(server, { role: 'admin' });
    const gone = await signedIn(server, { disabled: 1, disabled_source: 'directory' });
    const res = await as(server, admin).patch(`${URL}/${gone.user.id}`, { disabled: false });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/directory/);
    const self = await as(server, admin).patch(`${URL}/${admin.user.id}`, { disabled: true });
    expect(self.statusCode).toBe(403);
    expect((await row(admin.user.id)).disabled).toBe(0);
  });

  it('never leaves the organisation without an enabled administrator', async () => {
    const first = await signedIn(server, { role: 'admin' });
    const second = await signedIn(server, { role: 'admin' });
    await onlyAdmins(first, second);
    // Another admin remains: you may take your own role away.
    const own = dataOf<AdminPerson>(
      await as(server, second).patch(`${URL}/${second.user.id}`, { role: 'member' }),
    );
    expect(own).toMatchObject({ role: 'member', abilities: { makeAdmin: false, removeAdmin: false } });
    // Now `first` is the last one.
    const last = await as(server, first).patch(`${URL}/${first.user.id}`, { role: 'member' });
    expect(last.statusCode).toBe(409);
    expect(last.json().code).toBe(ErrorCode.conflict);
    expect(last.json().message).toMatch(/last enabled administrator/);
    expect(await row(first.user.id)).toMatchObject({ role: 'admin' });

    // A disabled administrator does not count: disabling the other one leaves `first` alone again.
    const third = await signedIn(server, { role: 'admin' });
    dataOf(await as(server, first).patch(`${URL}/${third.user.id}`, { disabled: true }));
    expect((await as(server, first).patch(`${URL}/${first.user.id}`, { role: 'member' })).statusCode).toBe(
      409,
    );
    expect((await audits(first.user.id)).map((a) => a.action)).toEqual([]);
  });
});
