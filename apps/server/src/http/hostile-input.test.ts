import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@btalk/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { createContext } from '../context.ts';
import { describeEachDatabase, openTestDatabase, testDatabaseKinds } from '../test/db.ts';
import { testConfig, useTestServer } from '../test/server.ts';
import { type SignedIn, signedIn } from '../test/session.ts';
import { as, buildTopic, dataOf } from '../test/topics.ts';

/** A cursor as a client could forge one: base64url of any JSON (or of any text). */
const forged = (value: unknown) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

describeEachDatabase('hostile input', (kind) => {
  const server = useTestServer(kind);
  let me: SignedIn;
  let topicId: string;
  let postId: string;

  beforeAll(async () => {
    me = await signedIn(server, { role: 'admin' });
    topicId = (await buildTopic(server, me)).id;
    postId = dataOf<{ id: string }>(
      await as(server, me).post(`/api/topics/${topicId}/posts`, { clientId: randomUUID(), body: 'Hello' }),
    ).id;
  });

  // [what, method, url, body, the field the 400 names]
  const cases: [string, 'GET' | 'POST' | 'PATCH', () => string, (() => object) | null, string][] = [
    [
      'a NUL in a topic title',
      'POST',
      () => '/api/topics',
      () => ({ title: 'a\u0000b', visibility: 'organisation' }),
      'body.title',
    ],
    [
      'a NUL in a changed description',
      'PATCH',
      () => `/api/topics/${topicId}`,
      () => ({ description: '\u0000' }),
      'body.description',
    ],
    [
      'a NUL in a post',
      'POST',
      () => `/api/topics/${topicId}/posts`,
      () => ({ clientId: randomUUID(), body: 'hi\u0000' }),
      'body.body',
    ],
    [
      'a NUL in a comment',
      'POST',
      () => `/api/posts/${postId}/comments`,
      () => ({ clientId: randomUUID(), body: '\u0000x' }),
      'body.body',
    ],
    [
      'a NUL in an array item',
      'POST',
      () => '/api/topics',
      () => ({ title: 't', visibility: 'members', memberIds: ['ok', 'x\u0000'] }),
      'body.memberIds.1',
    ],
    [
      'a NUL in a key',
      'POST',
      () => '/api/topics',
      () => ({ title: 't', visibility: 'members', 'x\u0000': 1 }),
      'body',
    ],
    ['a NUL in a path id', 'GET', () => '/api/topics/abc%00', null, 'params.topicId'],
    ['a NUL in a post id', 'GET', () => '/api/posts/%00/comments', null, 'params.postId'],
    ['a NUL as the cursor', 'GET', () => '/api/topics?cursor=%00', null, 'query.cursor'],
    ['a NUL in a search', 'GET', () => '/api/search?q=a%00b', null, 'query.q'],
    ['a NUL in a people search', 'GET', () => '/api/users?search=a%00', null, 'query.search'],
    ['a cursor of garbage', 'GET', () => `/api/topics?cursor=${forged('garbage{')}`, null, 'query.cursor'],
    ['a cursor that is not base64url', 'GET', () => '/api/topics?cursor=!!!!', null, 'query.cursor'],
    [
      'a cursor of another shape',
      'GET',
      () => `/api/topics?cursor=${forged({ a: 1 })}`,
      null,
      'query.cursor',
    ],
    [
      'a cursor with a NUL inside',
      'GET',
      () => `/api/topics?cursor=${forged(['\u0000', 'x'])}`,
      null,
      'query.cursor',
    ],
    [
      'a cursor with a time that is not one',
      'GET',
      () => `/api/topics?cursor=${forged(['yesterday', 'x'])}`,
      null,
      'query.cursor',
    ],
    [
      'a cursor with 31 February',
      'GET',
      () => `/api/notifications?cursor=${forged(['2026-02-31T00:00:00.000Z', 'x'])}`,
      null,
      'query.cursor',
    ],
    [
      'a search cursor with a bad time',
      'GET',
      () => `/api/search?q=hello&cursor=${forged(['x', 1])}`,
      null,
      'query.cursor',
    ],
    [
      'a post cursor with a fraction',
      'GET',
      () => `/api/topics/${topicId}/posts?cursor=${forged([1.5])}`,
      null,
      'query.cursor',
    ],
    [
      'a post cursor with a text',
      'GET',
      () => `/api/topics/${topicId}/posts?cursor=${forged(['1'])}`,
      null,
      'query.cursor',
    ],
    [
      'a members cursor with a NUL',
      'GET',
      () => `/api/topics/${topicId}/members?cursor=${forged([0, 'a\u0000', 'b'])}`,
      null,
      'query.cursor',
    ],
    [
      'a comments cursor of numbers',
      'GET',
      () => `/api/posts/${postId}/comments?cursor=${forged([1])}`,
      null,
      'query.cursor',
    ],
  ];

  it.each(cases)('answers %s with 400 naming the field', async (_what, method, url, body, field) => {
    const res = await server.request({
      method,
      url: url(),
      headers: me.headers,
      ...(body ? { payload: body() } : {}),
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({
      code: ErrorCode.validation,
      details: [expect.objectContaining({ field })],
    });
  });

  it('still pages with the cursors it gives', async () => {
    for (let i = 0; i < 3; i++) await buildTopic(server, me);
    const first = dataOf<{ nextCursor: string }>(await as(server, me).get('/api/topics?limit=1'));
    const second = await as(server, me).get(`/api/topics?limit=1&cursor=${first.nextCursor}`);
    expect(second.statusCode).toBe(200);
  });
});

describe('values the database refuses', () => {
  // The safety net behind the checks above: a value that reaches PostgreSQL and is refused there.
  for (const kind of testDatabaseKinds.filter((k) => k === 'postgres')) {
    let close = async () => {};
    afterAll(() => close());

    it('answer 400 without the database message, not 500', async () => {
      const testDb = await openTestDatabase(kind);
      const app = await buildApp(createContext(testConfig(), testDb.db, 'test'), { logger: false });
      close = async () => {
        await app.close();
        await testDb.cleanup().catch(() => {});
      };
      app.get('/api/refused', async (request) => {
        const value = (request.query as { v: string }).v;
        await sql`select ${value}::integer`.execute(testDb.db.kysely);
        return {};
      });
      const res = await app.inject({
        method: 'GET',
        url: '/api/refused?v=secret-ish',
        headers: { 'x-api-key': testConfig().apiKey },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe(ErrorCode.validation);
      expect(res.body).not.toContain('secret-ish');
    });
  }
});
