import { connect } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { record, TestClient } from '../realtime/testing.ts';
import { useTestServer } from '../test/server.ts';
import { signedIn } from '../test/session.ts';
import { buildTopic } from '../test/topics.ts';

/** What a raw TCP client saw: the bytes it got and when the server closed the connection. */
interface RawOutcome {
  received: string;
  closedAfterMs: number;
}

/**
 * Opens a TCP connection, writes `chunks` with `gapMs` between them (the last one is left
 * unfinished when it is not a whole request), and waits until the server closes the connection or
 * `waitMs` passes.
 */
function rawRequest(address: string, chunks: string[], gapMs: number, waitMs = 10_000): Promise<RawOutcome> {
  const { hostname, port } = new URL(address);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(Number(port), hostname);
    let received = '';
    const timers: NodeJS.Timeout[] = [];
    socket.on('data', (data) => {
      received += data.toString();
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      for (const timer of timers) clearTimeout(timer);
      resolve({ received, closedAfterMs: Date.now() - started });
    });
    socket.on('connect', () => {
      chunks.forEach((chunk, i) => {
        timers.push(
          setTimeout(() => {
            if (!socket.destroyed) socket.write(chunk);
          }, i * gapMs),
        );
      });
      timers.push(
        setTimeout(() => {
          socket.destroy();
          reject(new Error(`the server kept the connection open for ${waitMs} ms: ${received}`));
        }, waitMs),
      );
    });
  });
}

describe('slow clients', () => {
  // Small limits so that the test is quick: 1 s for the headers, 3 s for a whole request.
  const server = useTestServer('sqlite', { HEADERS_TIMEOUT_SECONDS: '1', REQUEST_TIMEOUT_SECONDS: '3' });
  let url = '';
  beforeAll(async () => {
    url = await server.app.listen({ port: 0, host: '127.0.0.1' });
  });

  it('lose the connection when the headers do not arrive in time', async () => {
    const outcome = await rawRequest(url, ['GET /api/health HTTP/1.1\r\n', 'Host: 127.0.0.1\r\n'], 200);
    expect(outcome.received).toMatch(/^HTTP\/1\.1 408 /);
    // 1 s, checked every half second; Node's default would have waited up to a minute and a half.
    expect(outcome.closedAfterMs).toBeGreaterThanOrEqual(900);
    expect(outcome.closedAfterMs).toBeLessThan(3000);
  });

  it('may send a body for longer than the headers timeout, but not for longer than the request timeout', async () => {
    const head = (length: number) =>
      'POST /api/nothing-here HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n' +
      `x-api-key: ${server.ctx.config.apiKey}\r\ncontent-type: application/json\r\ncontent-length: ${length}\r\n\r\n`;
    // The whole body in 2 s (past the headers' 1 s): answered (404 for this unknown route).
    const body = JSON.stringify({ text: 'x'.repeat(40) });
    const parts = [
      head(body.length),
      body.slice(0, 10),
      body.slice(10, 20),
      body.slice(20, 30),
      body.slice(30),
    ];
    const answered = await rawRequest(url, parts, 500);
    expect(answered.received).toMatch(/^HTTP\/1\.1 404 /);

    // A body that never ends: cut at 3 s.
    const dripping = await rawRequest(
      url,
      [head(1000), '{"text":"', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x'],
      500,
    );
    expect(dripping.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(dripping.closedAfterMs).toBeGreaterThanOrEqual(2900);
    expect(dripping.closedAfterMs).toBeLessThan(5000);
  });

  it('do not cut a realtime WebSocket once it is open', async () => {
    const { user, token } = await signedIn(server);
    const client = new TestClient(url);
    try {
      await client.hello(token, server.ctx.config.apiKey);
      // Past the request timeout and a few connection checks.
      await new Promise((resolve) => setTimeout(resolve, 4500));
      expect(client.socket.readyState).toBe(client.socket.OPEN);
      await record(server.ctx, `user:${user.id}`, 'test.stillThere');
      await client.waitForEvents(1, (m) => m.type === 'event' && m.name === 'test.stillThere');
    } finally {
      await client.close();
    }
  });

  it('upload a 25 MB attachment at loopback speed within the limits', async () => {
    const alice = await signedIn(server);
    const topic = await buildTopic(server, alice);
    const form = new FormData();
    form.append('file', new Blob([Buffer.alloc(25 * 1024 * 1024, 7)]), 'big.bin');
    const res = await fetch(`${url}/api/topics/${topic.id}/attachments`, {
      method: 'POST',
      headers: { 'x-api-key': server.ctx.config.apiKey, ...alice.headers },
      body: form,
    });
    const answer = (await res.json()) as { code: number; data: { attachments: { sizeBytes: number }[] } };
    expect(answer.code, JSON.stringify(answer)).toBe(0);
    expect(answer.data.attachments[0]?.sizeBytes).toBe(25 * 1024 * 1024);
  });
});
