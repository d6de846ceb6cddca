import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BotConnectorStandIn } from '../test/botConnector.ts';
import { BotConnector, ConnectorError, parseRetryAfter } from './connector.ts';

describe('Retry-After', () => {
  it('reads seconds and HTTP dates; anything else says nothing', () => {
    const at = Date.parse('2026-11-23T10:00:00Z');
    expect(parseRetryAfter('120', at)).toBe(120_000);
    expect(parseRetryAfter('Mon, 23 Nov 2026 10:00:30 GMT', at)).toBe(30_000);
    expect(parseRetryAfter('Mon, 23 Nov 2026 09:00:00 GMT', at)).toBe(0);
    expect(parseRetryAfter('soon', at)).toBeUndefined();
    expect(parseRetryAfter(null, at)).toBeUndefined();
  });
});

describe('BotConnector (against a local Bot Connector)', () => {
  const stand = new BotConnectorStandIn();
  beforeAll(() => stand.start());
  afterAll(() => stand.stop());
  const ref = (conversationId: string) => ({ serviceUrl: stand.serviceUrl, conversationId });

  it('gets a token with client credentials once, sends with it, and answers the activity id', async () => {
    const connector = new BotConnector(stand.credentials);
    const before = stand.tokenRequests;
    const sent = await Promise.all([
      connector.send(ref('a:one'), { type: 'message', text: 'one' }),
      connector.send(ref('a:two'), { type: 'message', text: 'two' }),
    ]);
    await connector.send(ref('a:one'), { type: 'message', text: 'three' });
    expect(stand.tokenRequests - before).toBe(1);
    expect(sent.map((s) => s.id)).toEqual(
      stand.received.filter((r) => r.activity.text !== 'three').map((r) => r.id),
    );
    expect(stand.activitiesOf('a:one').map((a) => a.text)).toEqual(['one', 'three']);
  });

  it('throws ConnectorError with the status and Retry-After; a wrong secret never reads as a 403', async () => {
    const connector = new BotConnector(stand.credentials);
    stand.answerNext({ status: 429, retryAfter: '7' });
    await expect(connector.send(ref('a:busy'), { type: 'message' })).rejects.toMatchObject({
      name: 'ConnectorError',
      status: 429,
      retryAfterMs: 7000,
    });
    stand.gone('a:blocked');
    const blocked = await connector.send(ref('a:blocked'), { type: 'message' }).catch((e: unknown) => e);
    expect(blocked).toBeInstanceOf(ConnectorError);
    expect(blocked).toMatchObject({ status: 403 });

    const wrong = new BotConnector({ ...stand.credentials, appPassword: 'not-the-secret' });
    const refused = await wrong.send(ref('a:one'), { type: 'message' }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ name: 'ConnectorError', status: 502 });
    expect(String((refused as Error).message)).not.toContain('not-the-secret');
  });
});
