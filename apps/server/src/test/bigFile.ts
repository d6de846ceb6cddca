import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';

/** Bytes of the "big" test file: a little over two 5 MiB parts, so an S3 upload takes three. */
export const BIG_FILE_BYTES = 11 * 1024 * 1024 + 12_345;

/** The byte at `i` of the big file: a pattern that repeats in no part size. */
export const bigFileByteAt = (i: number) => (i * 7 + (i >> 13)) & 0xff;

/**
 * The big file in 64 KiB chunks, made as it is read (never whole in memory); `counter.produced`
 * counts the bytes handed out so far. With `failAt`, the stream fails there as a client that went away.
 */
export function bigFile(counter: { produced: number } = { produced: 0 }, failAt?: number): Readable {
  return Readable.from(
    (async function* () {
      for (let at = 0; at < BIG_FILE_BYTES; at += 65_536) {
        if (failAt !== undefined && at >= failAt) throw new Error('the client went away');
        const chunk = Buffer.alloc(Math.min(65_536, BIG_FILE_BYTES - at));
        for (let i = 0; i < chunk.length; i++) chunk[i] = bigFileByteAt(at + i);
        counter.produced += chunk.length;
        yield chunk;
      }
    })(),
  );
}

/** The sha256 and length of a stream's bytes. */
export async function digest(stream: AsyncIterable<Uint8Array>): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of stream) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { sha256: hash.digest('hex'), bytes };
}

/** The digest of the big file, computed the same way without storing it. */
export function bigFileDigest(): Promise<{ sha256: string; bytes: number }> {
  return digest(bigFile());
}

/** A stream's bytes as UTF-8 text. */
export async function streamText(stream: AsyncIterable<Uint8Array>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString();
}
