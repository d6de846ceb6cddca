import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { frameStream, textFrame, writeTextFrame } from './frames.ts';

/** A real `ws` server and one client of it; the server's end of the socket is handed back. */
async function pair(options: { perMessageDeflate: boolean }) {
  const http: Server = createServer();
  const wss = new WebSocketServer({ server: http, perMessageDeflate: options.perMessageDeflate });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const accepted = once(wss, 'connection') as Promise<[WebSocket]>;
  const client = new WebSocket(`ws://127.0.0.1:${(http.address() as { port: number }).port}`);
  const received: string[] = [];
  client.on('message', (data, isBinary) => received.push(isBinary ? '(binary)' : data.toString()));
  const closed = once(client, 'close');
  const [server] = await accepted;
  await once(client, 'open');
  const stop = async () => {
    client.terminate();
    for (const socket of wss.clients) socket.terminate();
    await new Promise((resolve) => wss.close(resolve));
    await new Promise((resolve) => http.close(resolve));
  };
  return { server, client, received, closed, stop };
}

const texts = ['{"a":1}', `{"b":"${'é'.repeat(150)}"}`, `{"c":"${'x'.repeat(70_000)}"}`];

describe('prebuilt text frames', () => {
  let stop: () => Promise<void> = async () => {};
  afterEach(() => stop());

  it('are read by a ws client as the same text messages, in order with ordinary sends', async () => {
    const p = await pair({ perMessageDeflate: false });
    stop = p.stop;
    const stream = frameStream(p.server);
    expect(stream).not.toBeNull();
    // Short (7-bit length), medium (16-bit, multi-byte characters) and long (64-bit) messages.
    for (const text of texts) {
      writeTextFrame(p.server, stream, textFrame(text), text);
      p.server.send('{"between":true}');
    }
    await expect.poll(() => p.received.length).toBe(6);
    expect(p.received).toEqual(texts.flatMap((text) => [text, '{"between":true}']));
  });

  it('are sent through ws itself when an extension changes the wire', async () => {
    const p = await pair({ perMessageDeflate: true });
    stop = p.stop;
    expect(p.server.extensions).toContain('permessage-deflate');
    expect(frameStream(p.server)).toBeNull();
    writeTextFrame(p.server, null, textFrame(texts[1]!), texts[1]!);
    await expect.poll(() => p.received).toEqual([texts[1]]);
  });

  it('are not written to a socket that is closing', async () => {
    const p = await pair({ perMessageDeflate: false });
    stop = p.stop;
    const stream = frameStream(p.server) as import('node:net').Socket;
    p.server.close(1000, 'bye');
    const written = stream.bytesWritten;
    writeTextFrame(p.server, stream, textFrame(texts[0]!), texts[0]!);
    expect(stream.bytesWritten).toBe(written);
    await p.closed;
    expect(p.received).toEqual([]);
  });
});
