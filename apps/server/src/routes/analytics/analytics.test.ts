import { ErrorCode } from '@btalk/contracts';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/db.ts';
import { useTestServer } from '../../test/server.ts';

describeEachDatabase('POST /api/analytics/pageviews', (kind) => {
  const server = useTestServer(kind);
  const send = (payload: unknown, headers: Record<string, string> = {}) =>
    server.request({ method: 'POST', url: '/api/analytics/pageviews', payload: payload as object, headers });

  it('requires the client key', async () => {
    const res = await send({ path: '/' }, { 'x-api-key': '' });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe(ErrorCode.badApiKey);
  });

  it('records a page view', async () => {
    const res = await send({ path: '/topics/42', locale: 'th' });
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    const row = await server.ctx.db.kysely
      .selectFrom('page_views')
      .selectAll()
      .where('id', '=', data.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ path: '/topics/42', locale: 'th' });
  });

  it('names the bad field and the reason', async () => {
    const res = await send({ path: 'topics?x=1', locale: 'fr' });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe(ErrorCode.validation);
    expect(body.details).toEqual(
      expect.arrayContaining([
        { field: 'body.path', reason: expect.stringContaining('starts with /') },
        { field: 'body.locale', reason: expect.any(String) },
      ]),
    );
  });

  it('refuses a body that is not JSON', async () => {
    const res = await server.request({
      method: 'POST',
      url: '/api/analytics/pageviews',
      payload: '{"path": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: ErrorCode.validation, details: [{ field: 'body' }] });
  });

  it('refuses a body over the size limit', async () => {
    const res = await send({ path: `/${'a'.repeat(2 * 1024 * 1024)}` });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe(ErrorCode.tooLarge);
  });
});

describeEachDatabase('POST /api/analytics/pageviews when analytics is off', (kind) => {
  const server = useTestServer(kind, { ANALYTICS: 'false' });

  it('is forbidden and records nothing', async () => {
    const res = await server.request({
      method: 'POST',
      url: '/api/analytics/pageviews',
      payload: { path: '/' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe(ErrorCode.forbidden);
    const rows = await server.ctx.db.kysely.selectFrom('page_views').selectAll().execute();
    expect(rows).toHaveLength(0);
  });
});
