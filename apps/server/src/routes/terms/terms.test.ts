import { ErrorCode } from '@btalk/contracts';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/db.ts';
import { useTestServer } from '../../test/server.ts';
import { signedIn } from '../../test/session.ts';

const texts = {
  th: { title: 'ข้อกำหนดการใช้งาน ฉบับที่ 2', body: '## ใหม่\n\nโปรดอ่าน' },
  en: { title: 'Terms of use, version 2', body: '## New\n\nPlease read.' },
};

describeEachDatabase('GET /api/terms/current', (kind) => {
  const server = useTestServer(kind);
  const current = (headers: Record<string, string> = {}, query = '') =>
    server.request({ method: 'GET', url: `/api/terms/current${query}`, headers });

  it('requires authentication', async () => {
    const res = await current();
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe(ErrorCode.unauthenticated);
  });

  it('answers the seeded version 1 in the caller’s language, the other language beside', async () => {
    const { headers } = await signedIn(server, { locale: 'th' }, { acceptedTerms: false });
    const res = await current(headers);
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data).toMatchObject({
      version: 1,
      text: { locale: 'th', title: 'ข้อกำหนดการใช้งาน BTalk' },
      otherLanguages: [{ locale: 'en', title: 'BTalk terms of use' }],
      acceptedAt: null,
      abilities: { accept: true, publish: false },
    });
    expect(data.text.body).toContain('ข้อมูลส่วนบุคคล');
    expect(data.otherLanguages[0].body).toContain('## 3. Your personal data');
    expect(Date.parse(data.publishedAt)).not.toBeNaN();
  });

  it('answers in the language asked for', async () => {
    const { headers } = await signedIn(server, { locale: 'th' }, { acceptedTerms: false });
    const { data } = (await current(headers, '?locale=en')).json();
    expect(data.text.locale).toBe('en');
    expect(data.otherLanguages.map((t: { locale: string }) => t.locale)).toEqual(['th']);
  });

  it('says when the caller accepted, and offers publishing to administrators only', async () => {
    const member = await signedIn(server);
    const accepted = (await current(member.headers)).json().data;
    expect(accepted.acceptedAt).toEqual(expect.any(String));
    expect(accepted.abilities).toEqual({ accept: false, publish: false });
    const admin = await signedIn(server, { role: 'admin' });
    expect((await current(admin.headers)).json().data.abilities).toEqual({ accept: false, publish: true });
  });

  it('names a bad query field', async () => {
    const { headers } = await signedIn(server);
    const res = await current(headers, '?locale=fr');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: ErrorCode.validation, details: [{ field: 'query.locale' }] });
  });
});

describeEachDatabase('POST /api/terms/acceptances and GET /api/terms/acceptances', (kind) => {
  const server = useTestServer(kind);
  const accept = (payload: unknown, headers: Record<string, string> = {}) =>
    server.request({
      method: 'POST',
      url: '/api/terms/acceptances',
      payload: payload as object,
      headers: { 'user-agent': 'Mozilla/5.0 (BTalk test)', ...headers },
    });
  const mine = (headers: Record<string, string> = {}) =>
    server.request({ method: 'GET', url: '/api/terms/acceptances', headers });
  const auditOf = (actorId: string) =>
    server.ctx.db.kysely.selectFrom('audit_log').selectAll().where('actor_id', '=', actorId).execute();

  it('require authentication', async () => {
    expect((await accept({ version: 1, client: 'web' })).statusCode).toBe(401);
    expect((await mine()).statusCode).toBe(401);
  });

  it('name the bad fields', async () => {
    const { headers } = await signedIn(server, {}, { acceptedTerms: false });
    const res = await accept({ version: 0, client: 'fax' }, headers);
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual(
      expect.arrayContaining([
        { field: 'body.version', reason: expect.any(String) },
        { field: 'body.client', reason: expect.any(String) },
      ]),
    );
  });

  it('accept the current version, record it in the audit log, and let the person through', async () => {
    const { user, headers } = await signedIn(server, {}, { acceptedTerms: false });
    const res = await accept({ version: 1, client: 'teams' }, headers);
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data).toEqual({ version: 1, acceptedAt: expect.any(String), client: 'teams' });

    const row = await server.ctx.db.kysely
      .selectFrom('users')
      .select('terms_accepted_version')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.terms_accepted_version).toBe(1);
    const entries = await auditOf(user.id);
    expect(entries).toEqual([
      expect.objectContaining({
        action: 'terms.accepted',
        target: 'terms:1',
        client_kind: 'teams',
        user_agent: 'Mozilla/5.0 (BTalk test)',
      }),
    ]);
    expect(JSON.parse(entries[0]!.details)).toEqual({ version: 1 });
    const current = await server.request({ method: 'GET', url: '/api/terms/current', headers });
    expect(current.json().data).toMatchObject({ acceptedAt: data.acceptedAt, abilities: { accept: false } });
  });

  it('accepting twice is harmless: one acceptance, one audit entry, the first time answered', async () => {
    const { user, headers } = await signedIn(server, {}, { acceptedTerms: false });
    const first = (await accept({ version: 1, client: 'web' }, headers)).json().data;
    const second = await accept({ version: 1, client: 'teams' }, headers);
    expect(second.statusCode).toBe(200);
    expect(second.json().data).toEqual(first);
    const both = await Promise.all([
      accept({ version: 1, client: 'web' }, headers),
      accept({ version: 1, client: 'web' }, headers),
    ]);
    expect(both.map((r) => r.statusCode)).toEqual([200, 200]);
    const rows = await server.ctx.db.kysely
      .selectFrom('terms_acceptances')
      .selectAll()
      .where('user_id', '=', user.id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(await auditOf(user.id)).toHaveLength(1);
  });

  it('refuse a version that does not exist', async () => {
    const { headers } = await signedIn(server, {}, { acceptedTerms: false });
    const res = await accept({ version: 99, client: 'web' }, headers);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe(ErrorCode.notFound);
  });

  it('list only the caller’s own acceptances, newest first', async () => {
    const stranger = await signedIn(server);
    const { headers } = await signedIn(server, {}, { acceptedTerms: false });
    expect((await mine(headers)).json().data).toEqual({ items: [] });
    await accept({ version: 1, client: 'web' }, headers);
    const { data } = (await mine(headers)).json();
    expect(data.items).toEqual([{ version: 1, acceptedAt: expect.any(String), client: 'web' }]);
    expect((await mine(stranger.headers)).json().data.items).toHaveLength(1);
  });
});

describeEachDatabase('publishing terms: POST and GET /api/terms/versions', (kind) => {
  const server = useTestServer(kind);
  const publish = (payload: unknown, headers: Record<string, string> = {}) =>
    server.request({ method: 'POST', url: '/api/terms/versions', payload: payload as object, headers });
  const versions = (headers: Record<string, string> = {}) =>
    server.request({ method: 'GET', url: '/api/terms/versions', headers });
  const versionCount = async () =>
    (await server.ctx.db.kysely.selectFrom('terms_versions').select('version').execute()).length;

  it('require authentication', async () => {
    expect((await publish({ ...texts, client: 'web' })).statusCode).toBe(401);
    expect((await versions()).statusCode).toBe(401);
  });

  it('are forbidden to members, and a refused publication writes nothing', async () => {
    const member = await signedIn(server);
    const res = await publish({ ...texts, client: 'web' }, member.headers);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe(ErrorCode.forbidden);
    expect(res.json().message).toContain('Only administrators');
    expect(await versionCount()).toBe(1);
    expect((await versions(member.headers)).statusCode).toBe(403);
  });

  it('name the bad fields', async () => {
    const admin = await signedIn(server, { role: 'admin' });
    const res = await publish({ th: { title: ' ', body: 'x' }, en: texts.en }, admin.headers);
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual(
      expect.arrayContaining([
        { field: 'body.th.title', reason: expect.any(String) },
        { field: 'body.client', reason: expect.any(String) },
      ]),
    );
    expect(await versionCount()).toBe(1);
  });

  it('publish version 2: everyone must accept again, version 1 can no longer be accepted', async () => {
    const admin = await signedIn(server, { role: 'admin', display_name: 'Admin Person' });
    const member = await signedIn(server);
    const late = await signedIn(server, {}, { acceptedTerms: false });

    const res = await publish(
      { ...texts, client: 'web' },
      { ...admin.headers, 'user-agent': 'AdminBrowser/1' },
    );
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({
      version: 2,
      current: true,
      acceptedCount: 0,
      publishedBy: { id: admin.user.id, displayName: 'Admin Person' },
      texts: [
        { locale: 'th', ...texts.th },
        { locale: 'en', ...texts.en },
      ],
    });
    const entry = await server.ctx.db.kysely
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'terms.published')
      .executeTakeFirstOrThrow();
    expect(entry).toMatchObject({
      actor_id: admin.user.id,
      target: 'terms:2',
      client_kind: 'web',
      user_agent: 'AdminBrowser/1',
    });

    const current = (
      await server.request({ method: 'GET', url: '/api/terms/current', headers: member.headers })
    ).json().data;
    expect(current).toMatchObject({ version: 2, acceptedAt: null, abilities: { accept: true } });

    const outdated = await server.request({
      method: 'POST',
      url: '/api/terms/acceptances',
      payload: { version: 1, client: 'web' },
      headers: late.headers,
    });
    expect(outdated.statusCode).toBe(409);
    expect(outdated.json().code).toBe(ErrorCode.termsOutdated);
    expect(outdated.json().message).toContain('accept that one');

    const accepted = await server.request({
      method: 'POST',
      url: '/api/terms/acceptances',
      payload: { version: 2, client: 'web' },
      headers: member.headers,
    });
    expect(accepted.statusCode).toBe(200);
    const mine = (
      await server.request({ method: 'GET', url: '/api/terms/acceptances', headers: member.headers })
    ).json().data.items;
    expect(mine.map((a: { version: number }) => a.version)).toEqual([2, 1]);
  });

  it('list every version with its acceptance count, newest first', async () => {
    const admin = await signedIn(server, { role: 'admin' });
    await signedIn(server, { disabled: 1 }, { acceptedTerms: false });
    const res = await versions(admin.headers);
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    const people = await server.ctx.db.kysely.selectFrom('users').select(['disabled']).execute();
    expect(data.activePeople).toBe(people.filter((p) => !p.disabled).length);
    const counts = await server.ctx.db.kysely.selectFrom('terms_acceptances').select(['version']).execute();
    expect(
      data.items.map((v: { version: number; current: boolean; acceptedCount: number }) => v),
    ).toMatchObject([
      { version: 2, current: true, acceptedCount: counts.filter((c) => c.version === 2).length },
      {
        version: 1,
        current: false,
        publishedBy: null,
        acceptedCount: counts.filter((c) => c.version === 1).length,
      },
    ]);
    // Version 2: the member who accepted it and this administrator; version 1: the four people of the earlier tests.
    expect(data.items[0].acceptedCount).toBe(2);
    expect(data.items[1].acceptedCount).toBe(4);
  });

  it('give concurrent publications consecutive version numbers', async () => {
    const admin = await signedIn(server, { role: 'admin' });
    const results = await Promise.all([
      publish({ ...texts, client: 'web' }, admin.headers),
      publish({ ...texts, client: 'teams' }, admin.headers),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([201, 201]);
    expect(results.map((r) => r.json().data.version).sort()).toEqual([3, 4]);
  });
});
