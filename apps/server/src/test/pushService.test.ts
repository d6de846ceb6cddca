import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webPush from 'web-push';
import { makeBrowserSubscription, type PushService, startPushService } from './pushService.ts';

/** The local push service must refuse what a real one refuses, or the push tests prove nothing. */
describe('local push service', () => {
  let service: PushService;
  const vapid = { ...webPush.generateVAPIDKeys(), subject: 'mailto:btalk@btalk.test' };
  beforeAll(async () => {
    service = await startPushService();
  });
  afterAll(() => service.close());

  const post = async (endpoint: string, keys: { p256dh: string; auth: string }, signer = vapid) => {
    const request = webPush.generateRequestDetails({ endpoint, keys }, 'hello', {
      vapidDetails: signer,
      TTL: 60,
    });
    const headers = Object.fromEntries(
      Object.entries(request.headers as Record<string, unknown>)
        .filter(([name]) => name.toLowerCase() !== 'content-length')
        .map(([name, value]) => [name, String(value)]),
    );
    return fetch(endpoint, { method: 'POST', headers, body: new Uint8Array(request.body) });
  };

  it('accepts and decrypts a real Web Push request', async () => {
    const browser = service.subscribe(vapid.publicKey);
    expect((await post(browser.endpoint, browser.keys)).status).toBe(201);
    expect(service.messages.at(-1)).toMatchObject({ text: 'hello', ttl: 60, vapid: { sub: vapid.subject } });
  });

  it('refuses a body encrypted for other keys', async () => {
    const browser = service.subscribe();
    const stranger = makeBrowserSubscription(browser.endpoint);
    const answer = await post(browser.endpoint, stranger.keys);
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain('cannot decrypt');
  });

  it('refuses a VAPID signature made for another audience or with another key', async () => {
    const browser = service.subscribe(vapid.publicKey);
    const other = { ...webPush.generateVAPIDKeys(), subject: vapid.subject };
    expect((await post(browser.endpoint, browser.keys, other)).status).toBe(403);
    const request = webPush.generateRequestDetails(
      { endpoint: 'https://elsewhere.test/push/1', keys: browser.keys },
      'x',
      {
        vapidDetails: vapid,
        TTL: 60,
      },
    );
    const answer = await fetch(browser.endpoint, {
      method: 'POST',
      headers: {
        authorization: String(request.headers.Authorization),
        ttl: '60',
        'content-encoding': 'aes128gcm',
      },
      body: new Uint8Array(request.body),
    });
    expect(answer.status).toBe(401);
    expect(await answer.text()).toContain('aud');
  });

  it('answers 410 for an unknown subscription', async () => {
    const stranger = makeBrowserSubscription(service.url('nobody'));
    expect((await post(stranger.endpoint, stranger.keys)).status).toBe(410);
  });
});
