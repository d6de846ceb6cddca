import { ErrorCode } from '@btalk/contracts';
import { expect, it } from 'vitest';
import { syncDevelopmentPeople } from '../../directory/index.ts';
import { describeEachDatabase } from '../../test/db.ts';
import { useTestServer } from '../../test/server.ts';
import { signedIn } from '../../test/session.ts';
import { as, dataOf } from '../../test/topics.ts';

interface Page {
  items: { id: string; displayName: string }[];
  nextCursor: string | null;
}

describeEachDatabase('GET /api/users', (kind) => {
  const server = useTestServer(kind);

  it('requires authentication and valid paging', async () => {
    expect((await as(server, null).get('/api/users')).statusCode).toBe(401);
    const me = await signedIn(server);
    const res = await as(server, me).get('/api/users?limit=1000');
    expect(res.statusCode).toBe(400);
    expect(res.json().details[0].field).toBe('query.limit');
  });

  it('finds people by part of a Thai or English name, e-mail or department, by name, with cursors', async () => {
    const me = await signedIn(server, { display_name: 'Searcher' });
    const somchai = await signedIn(server, { display_name: 'สมชาย ใจดี', department: 'ฝ่ายบัญชี' });
    const ann = await signedIn(server, {
      display_name: 'Ann Finance',
      email: 'ann.f@btalk.test',
      department: 'Finance',
    });
    await signedIn(server, { display_name: 'Gone Away', department: 'Finance', disabled: 1 });
    const thai = dataOf<Page>(await as(server, me).get(`/api/users?search=${encodeURIComponent('ใจดี')}`));
    expect(thai.items.map((u) => u.id)).toEqual([somchai.user.id]);
    const dept = dataOf<Page>(await as(server, me).get(`/api/users?search=${encodeURIComponent('บัญชี')}`));
    expect(dept.items.map((u) => u.id)).toEqual([somchai.user.id]);
    const email = dataOf<Page>(await as(server, me).get('/api/users?search=ANN.F'));
    expect(email.items.map((u) => u.id)).toEqual([ann.user.id]);
    const finance = dataOf<Page>(await as(server, me).get('/api/users?search=finance'));
    expect(finance.items.map((u) => u.id)).toEqual([ann.user.id]);
    const first = dataOf<Page>(await as(server, me).get('/api/users?limit=2'));
    expect(first.items).toHaveLength(2);
    const rest = dataOf<Page>(await as(server, me).get(`/api/users?limit=100&cursor=${first.nextCursor}`));
    const all = [...first.items, ...rest.items];
    expect(all.map((u) => u.id)).toEqual(expect.arrayContaining([me.user.id, somchai.user.id, ann.user.id]));
    expect(new Set(all.map((u) => u.id)).size).toBe(all.length);
    expect(all.map((u) => u.displayName)).not.toContain('Gone Away');
  });

  it('is the one people search: everyone signed in who accepted the terms; nobody else; bad input named', async () => {
    const member = await signedIn(server, { display_name: 'Plain Member' });
    const admin = await signedIn(server, { role: 'admin', display_name: 'Some Admin' });
    const target = await signedIn(server, {
      display_name: 'Findable Person',
      email: 'findable.person@btalk.test',
      department: 'Logistics',
      phone: '+66-2-555-0100',
    });
    // Unauthenticated, and a disabled person's still-valid token: 401.
    const anonymous = await as(server, null).get('/api/users?search=findable');
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).toBe(ErrorCode.unauthenticated);
    const disabled = await signedIn(server, { disabled: 1 });
    expect((await as(server, disabled).get('/api/users?search=findable')).statusCode).toBe(401);
    // Someone who has not accepted the terms of use finds nobody.
    const newcomer = await signedIn(server, {}, { acceptedTerms: false });
    const refused = await as(server, newcomer).get('/api/users?search=findable');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe(ErrorCode.termsNotAccepted);
    // Members (topic pickers) and admins (call trees) get the same people, the same fields, no phone.
    for (const caller of [member, admin]) {
      const found = dataOf<Page>(await as(server, caller).get('/api/users?search=findable.person'));
      expect(found.items).toEqual([
        {
          id: target.user.id,
          email: 'findable.person@btalk.test',
          displayName: 'Findable Person',
          department: 'Logistics',
          jobTitle: target.user.job_title,
          locale: target.user.locale,
          role: 'member',
        },
      ]);
    }
    // Bad input: 400 naming the field.
    for (const [query, field] of [
      [`search=${'x'.repeat(101)}`, 'query.search'],
      ['limit=0', 'query.limit'],
      ['cursor=zzz', 'query.cursor'],
      [`cursor=${Buffer.from(JSON.stringify(['name'])).toString('base64url')}`, 'query.cursor'],
    ]) {
      const res = await as(server, member).get(`/api/users?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().details[0], query).toEqual({ field, reason: expect.any(String) });
    }
  });
});

describeEachDatabase('GET /api/users/:userId (profile card)', (kind) => {
  const server = useTestServer(kind);

  it('requires authentication and a sensible id; an unknown person is 404', async () => {
    const me = await signedIn(server);
    expect((await as(server, null).get(`/api/users/${me.user.id}`)).statusCode).toBe(401);
    const unknown = await as(server, me).get('/api/users/no-such-person');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe(ErrorCode.notFound);
    const long = await as(server, me).get(`/api/users/${'x'.repeat(65)}`);
    expect(long.statusCode).toBe(400);
    expect(long.json().details[0].field).toBe('params.userId');
  });

  it('shows anyone the directory entry: names, job, department, phone, e-mail and the manager', async () => {
    const boss = await signedIn(server, { display_name: 'ประเสริฐ วงศ์สวัสดิ์', email: 'boss@btalk.test' });
    const somchai = await signedIn(server, {
      display_name: 'สมชาย ใจดี',
      given_name: 'Somchai',
      surname: 'Jaidee',
      job_title: 'Safety officer',
      department: 'Operations',
      phone: '+66 81 555 0199',
      manager_subject: boss.user.subject,
      issuer: boss.user.issuer,
    });
    const colleague = await signedIn(server);
    const card = dataOf(await as(server, colleague).get(`/api/users/${somchai.user.id}`));
    expect(card).toEqual({
      id: somchai.user.id,
      displayName: 'สมชาย ใจดี',
      givenName: 'Somchai',
      surname: 'Jaidee',
      email: somchai.user.email,
      jobTitle: 'Safety officer',
      department: 'Operations',
      phone: '+66 81 555 0199',
      manager: { id: boss.user.id, displayName: 'ประเสริฐ วงศ์สวัสดิ์', email: 'boss@btalk.test' },
      disabled: false,
    });
    // A manager at another directory is not this person's manager.
    const elsewhere = await signedIn(server, {
      manager_subject: boss.user.subject,
      issuer: 'https://another.directory',
    });
    expect(dataOf(await as(server, colleague).get(`/api/users/${elsewhere.user.id}`))).toMatchObject({
      manager: null,
      givenName: null,
      surname: null,
    });
    const gone = await signedIn(server, { disabled: 1 });
    expect(dataOf(await as(server, colleague).get(`/api/users/${gone.user.id}`))).toMatchObject({
      disabled: true,
    });
  });

  it('takes the Latin-script name parts from the directory sync', async () => {
    await syncDevelopmentPeople(server.ctx);
    const kanya = await server.ctx.db.kysely
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'kanya@btalk.test')
      .where('issuer', '=', server.ctx.config.directory.issuer)
      .executeTakeFirstOrThrow();
    const me = await signedIn(server);
    expect(dataOf(await as(server, me).get(`/api/users/${kanya.id}`))).toMatchObject({
      displayName: 'กัญญา รัตนากร',
      givenName: 'Kanya',
      surname: 'Rattanakorn',
      jobTitle: 'Executive Assistant',
      phone: '+66 81 555 0101',
      manager: expect.objectContaining({ displayName: 'ประเสริฐ วงศ์สวัสดิ์' }),
    });
  });
});
