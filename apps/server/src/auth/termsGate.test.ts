import { ErrorCode } from '@btalk/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { termsPublisher } from '../commands/termsPublisher.ts';
import type { Database } from '../db/index.ts';
import { errorHandler } from '../http/errors.ts';
import { describeEachDatabase, openTestDatabase, type TestDatabase } from '../test/db.ts';
import { buildUser } from '../test/factories.ts';
import { useTestServer } from '../test/server.ts';
import { signedIn } from '../test/session.ts';
import { authenticate } from './authenticate.ts';
import { CurrentTermsVersion, readCurrentTermsVersion } from './termsGate.ts';

const text = { title: 'Terms', body: 'Be kind.' };

async function publishDirectly(db: Kysely<Database>) {
  const admin = await buildUser(db, { role: 'admin' });
  return db
    .transaction()
    .execute((trx) =>
      termsPublisher(trx, { actor: admin, th: text, en: text, client: { kind: 'web', userAgent: null } }),
    );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeEachDatabase('the terms gate inside authenticate()', (kind) => {
  const server = useTestServer(kind);
  // A small app with the real authenticate() and error handler: one gated route, one exempt route.
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify({ logger: false });
    app.setErrorHandler(errorHandler);
    app.get('/gated', { onRequest: authenticate(server.ctx) }, async () => ({ code: 0, data: 'gated' }));
    app.get('/exempt', { onRequest: authenticate(server.ctx), config: { termsExempt: true } }, async () => ({
      code: 0,
      data: 'exempt',
    }));
    await app.ready();
  });
  afterAll(() => app.close());
  const call = (url: string, headers: Record<string, string>) => app.inject({ method: 'GET', url, headers });

  it('answers 403 with envelope code 4404 to a person who has not accepted, except on exempt routes', async () => {
    const { headers } = await signedIn(server, {}, { acceptedTerms: false });
    const gated = await call('/gated', headers);
    expect(gated.statusCode).toBe(403);
    expect(gated.json()).toMatchObject({
      code: ErrorCode.termsNotAccepted,
      message: expect.stringContaining('/api/terms/current'),
    });
    expect((await call('/exempt', headers)).statusCode).toBe(200);
  });

  it('still answers 401 before the terms to someone not signed in', async () => {
    const res = await call('/gated', {});
    expect(res.statusCode).toBe(401);
  });

  it('lets through people who accepted, until a new version is published, and again once accepted', async () => {
    const { headers } = await signedIn(server);
    expect((await call('/gated', headers)).statusCode).toBe(200);

    const admin = await signedIn(server, { role: 'admin' });
    const published = await server.request({
      method: 'POST',
      url: '/api/terms/versions',
      payload: { th: text, en: text, client: 'web' },
      headers: admin.headers,
    });
    expect(published.statusCode).toBe(201);
    const version = published.json().data.version;
    // The publishing instance knows at once; the publisher must accept too.
    expect((await call('/gated', headers)).json().code).toBe(ErrorCode.termsNotAccepted);
    expect((await call('/gated', admin.headers)).json().code).toBe(ErrorCode.termsNotAccepted);

    const accepted = await server.request({
      method: 'POST',
      url: '/api/terms/acceptances',
      payload: { version, client: 'web' },
      headers,
    });
    expect(accepted.statusCode).toBe(200);
    expect((await call('/gated', headers)).statusCode).toBe(200);
  });
});

describeEachDatabase('CurrentTermsVersion', (kind) => {
  let testDb: TestDatabase;
  beforeAll(async () => {
    testDb = await openTestDatabase(kind);
  });
  afterAll(() => testDb.cleanup());

  it('reads the newest version, then answers from the cache', async () => {
    const db = testDb.db.kysely;
    expect(await readCurrentTermsVersion(db)).toBe(1);
    const cache = new CurrentTermsVersion(db, 60_000);
    expect(await Promise.all([cache.get(), cache.get(), cache.get()])).toEqual([1, 1, 1]);
    const { version } = await publishDirectly(db);
    // Cached for its lifetime: a publication elsewhere is not seen yet...
    expect(await cache.get()).toBe(1);
    // ...but one on this instance is, at once.
    cache.published(version);
    expect(await cache.get()).toBe(version);
  });

  it('lets another instance see a publication within its lifetime', async () => {
    const db = testDb.db.kysely;
    const other = new CurrentTermsVersion(db, 150);
    const before = await other.get();
    const { version } = await publishDirectly(db);
    expect(version).toBe(before + 1);
    expect(await other.get()).toBe(before);
    await sleep(200);
    expect(await other.get()).toBe(version);
  });

  it('never goes back to an older version', async () => {
    const cache = new CurrentTermsVersion(testDb.db.kysely, 0);
    cache.published(1000);
    expect(await cache.get()).toBe(1000);
  });
});
