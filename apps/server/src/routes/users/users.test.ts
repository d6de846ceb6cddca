import { expect, it } from 'vitest';
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
});
