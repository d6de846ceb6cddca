import { createECDH, randomBytes } from 'node:crypto';
import { ErrorCode } from '@btalk/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/db.ts';
import { useTestServer } from '../../test/server.ts';
import { type SignedIn, signedIn } from '../../test/session.ts';
import { as, dataOf } from '../../test/topics.ts';

const URL = '/api/me/push-subscriptions';

/** A browser's `PushSubscription.toJSON()` with real-sized keys. */
function browserSubscription(name = randomBytes(6).toString('hex')) {
  const ecdh = createECDH('prime256v1');
  return {
    endpoint: `https://push.example.test/send/${name}`,
    expirationTime: null,
    keys: { p256dh: ecdh.generateKeys().toString('base64url'), auth: randomBytes(16).toString('base64url') },
  };
}

describeEachDatabase('POST and DELETE /api/me/push-subscriptions', (kind) => {
  const server = useTestServer(kind);
  const db = () => server.ctx.db.kysely;

  const subscribe = (who: SignedIn | null, body: unknown) => as(server, who).post(URL, body);
  /** `as(...).delete` sends no body; this route takes the endpoint in its body. */
  const unsubscribe = (who: SignedIn | null, endpoint: string): Promise<LightMyRequestResponse> =>
    server.request({ method: 'DELETE', url: URL, headers: who?.headers ?? {}, payload: { endpoint } });
  const ownerOf = async (endpoint: string) =>
    (
      await db()
        .selectFrom('push_subscriptions')
        .select('user_id')
        .where('endpoint', '=', endpoint)
        .executeTakeFirst()
    )?.user_id;
  const subscriptionsOf = async (who: SignedIn) =>
    dataOf<{ pushSubscriptions: number }>(await as(server, who).get('/api/me/notification-settings'))
      .pushSubscriptions;

  it('require authentication', async () => {
    const sub = browserSubscription();
    for (const res of [await subscribe(null, sub), await unsubscribe(null, sub.endpoint)]) {
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe(ErrorCode.unauthenticated);
    }
    expect(await ownerOf(sub.endpoint)).toBeUndefined();
  });

  it('subscribes browsers once each and counts them', async () => {
    const me = await signedIn(server);
    const laptop = browserSubscription();
    expect(dataOf(await subscribe(me, laptop))).toEqual({ subscribed: true, pushSubscriptions: 1 });
    // A browser sends its subscription again on every visit: still one, with its new keys.
    const renewed = { ...browserSubscription(), endpoint: laptop.endpoint };
    expect(dataOf(await subscribe(me, renewed))).toEqual({ subscribed: true, pushSubscriptions: 1 });
    const row = await db()
      .selectFrom('push_subscriptions')
      .selectAll()
      .where('endpoint', '=', laptop.endpoint)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ user_id: me.user.id, p256dh: renewed.keys.p256dh, auth: renewed.keys.auth });
    expect(dataOf(await subscribe(me, browserSubscription()))).toEqual({
      subscribed: true,
      pushSubscriptions: 2,
    });
    expect(await subscriptionsOf(me)).toBe(2);
  });

  it('gives a browser to the last person signed in on it', async () => {
    const alice = await signedIn(server);
    const bob = await signedIn(server);
    const shared = browserSubscription();
    await subscribe(alice, shared);
    await subscribe(alice, browserSubscription());
    expect(dataOf(await subscribe(bob, shared))).toEqual({ subscribed: true, pushSubscriptions: 1 });
    expect(await ownerOf(shared.endpoint)).toBe(bob.user.id);
    expect(await subscriptionsOf(alice)).toBe(1);
  });

  it('forgets my browser; another person’s endpoint is 404 as if absent', async () => {
    const me = await signedIn(server);
    const stranger = await signedIn(server);
    const mine = browserSubscription();
    const theirs = browserSubscription();
    await subscribe(me, mine);
    await subscribe(me, browserSubscription());
    await subscribe(stranger, theirs);

    const refused = await unsubscribe(me, theirs.endpoint);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().code).toBe(ErrorCode.notFound);
    expect(await ownerOf(theirs.endpoint)).toBe(stranger.user.id);

    expect(dataOf(await unsubscribe(me, mine.endpoint))).toEqual({ subscribed: false, pushSubscriptions: 1 });
    expect(await ownerOf(mine.endpoint)).toBeUndefined();
    expect((await unsubscribe(me, mine.endpoint)).statusCode).toBe(404);
    expect((await unsubscribe(me, 'https://push.example.test/never')).statusCode).toBe(404);
  });

  it('names bad subscriptions and stores none of them', async () => {
    const me = await signedIn(server);
    const good = browserSubscription();
    const cases: [unknown, string][] = [
      [{ ...good, endpoint: 'http://push.example.test/plain' }, 'body.endpoint'],
      [{ ...good, endpoint: 'not a url' }, 'body.endpoint'],
      [
        { ...good, keys: { ...good.keys, p256dh: randomBytes(33).toString('base64url') } },
        'body.keys.p256dh',
      ],
      [{ ...good, keys: { ...good.keys, p256dh: 'not base64url!' } }, 'body.keys.p256dh'],
      [{ ...good, keys: { ...good.keys, auth: randomBytes(8).toString('base64url') } }, 'body.keys.auth'],
      [{ ...good, keys: { p256dh: good.keys.p256dh } }, 'body.keys.auth'],
      [{ ...good, topic: 'extra' }, 'body.topic'],
      [{ endpoint: `https://push.example.test/${'a'.repeat(1100)}`, keys: good.keys }, 'body.endpoint'],
    ];
    for (const [body, field] of cases) {
      const res = await subscribe(me, body);
      expect(res.statusCode, field).toBe(400);
      expect(res.json().code).toBe(ErrorCode.validation);
      expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
    }
    expect((await unsubscribe(me, '')).statusCode).toBe(400);
    expect(await subscriptionsOf(me)).toBe(0);
  });

  it('refuses oversize bodies with 413', async () => {
    const me = await signedIn(server);
    const huge = { ...browserSubscription(), padding: 'x'.repeat(5000) };
    for (const res of [await subscribe(me, huge), await unsubscribe(me, 'x'.repeat(5000))]) {
      expect(res.statusCode).toBe(413);
      expect(res.json().code).toBe(ErrorCode.tooLarge);
    }
  });
});

describeEachDatabase('POST /api/me/push-subscriptions when WEB_PUSH is off', (kind) => {
  const server = useTestServer(kind, { WEB_PUSH: 'false' });

  it('answers 409 with the reason, and settings say push is not available', async () => {
    const me = await signedIn(server);
    const res = await as(server, me).post(URL, browserSubscription());
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: ErrorCode.conflict,
      message: expect.stringContaining('WEB_PUSH'),
    });
    const view = dataOf<{ available: { push: boolean }; vapidPublicKey: string | null }>(
      await as(server, me).get('/api/me/notification-settings'),
    );
    expect(view.available.push).toBe(false);
    expect(view.vapidPublicKey).toBeNull();
  });
});
