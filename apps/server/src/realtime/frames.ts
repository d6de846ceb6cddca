import type { Duplex } from 'node:stream';
import { WebSocket } from 'ws';

/**
 * The whole WebSocket frame of one text message as a server sends it (RFC 6455 §5.2: final,
 * opcode 1, unmasked): built once per event, so that sending it to a socket is one write of the
 * same bytes, with no per-socket encoding, framing or allocation.
 */
export function textFrame(text: string): Buffer {
  const length = Buffer.byteLength(text);
  const header = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(header + length);
  frame[0] = 0x81;
  if (header === 2) frame[1] = length;
  else if (header === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  frame.write(text, header, 'utf8');
  return frame;
}

/**
 * Where a socket's prebuilt frames can be written directly: its TCP stream, when no extension
 * (permessage-deflate) changes what goes on the wire. `ws` then writes every frame synchronously
 * and in call order, so a direct write keeps its place among `send`s. Null: use `send`.
 */
export function frameStream(socket: WebSocket): Duplex | null {
  if (socket.extensions !== '') return null;
  return (socket as unknown as { _socket?: Duplex })._socket ?? null;
}

/**
 * Sends a text message as its prebuilt frame (`textFrame(text)`) on an open socket; a socket that
 * is closing or closed gets nothing (as `ws` drops a `send` after close).
 */
export function writeTextFrame(socket: WebSocket, stream: Duplex | null, frame: Buffer, text: string): void {
  if (socket.readyState !== WebSocket.OPEN) return;
  if (stream) stream.write(frame);
  else socket.send(text);
}
