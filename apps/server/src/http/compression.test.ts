import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { PNG, uploaded } from '../test/attachments.ts';
import { describeEachDatabase } from '../test/db.ts';
import { useTestServer } from '../test/server.ts';
import { signedIn } from '../test/session.ts';
import { as, buildPost, buildTopic } from '../test/topics.ts';

/**
 * A stand-in for the web build as apps/web/vite.config.ts writes it: text files of 256 bytes or more with a
 * brotli and a gzip copy beside them, smaller ones (the web manifest) without.
 */
const webDist = mkdtempSync(path.join(tmpdir(), 'btalk-web-'));
const INDEX = `<!doctype html><title>BTalk</title><script type="module" src="/assets/index-abc.js"></script>${'<!-- padding -->'.repeat(80)}`;
const SCRIPT = `export const greeting = ${JSON.stringify('hello '.repeat(2000))};\n`;
const MANIFEST = '{"name":"BTalk"}';
function writeWithCopies(file: string, text: string) {
  writeFileSync(file, text);
  writeFileSync(`${file}.br`, brotliCompressSync(text));
  writeFileSync(`${file}.gz`, gzipSync(text, { level: 9 }));
}
mkdirSync(path.join(webDist, 'assets'));
writeWithCopies(path.join(webDist, 'index.html'), INDEX);
writeWithCopies(path.join(webDist, 'assets', 'index-abc.js'), SCRIPT);
writeFileSync(path.join(webDist, 'manifest.webmanifest'), MANIFEST);
afterAll(() => rmSync(webDist, { recursive: true, force: true }));

/** The body as the client would read it after undoing the Content-Encoding. */
function decoded(res: LightMyRequestResponse): string {
  const raw = res.rawPayload;
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(raw).toString();
  if (encoding === 'gzip') return gunzipSync(raw).toString();
  expect(encoding).toBeUndefined();
  return raw.toString();
}

function varyNames(res: LightMyRequestResponse): string[] {
  return String(res.headers.vary ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase());
}

describe('the web build, precompressed', () => {
  const server = useTestServer('sqlite', { WEB_DIST: webDist });
  const get = (url: string, acceptEncoding?: string) =>
    server.app.inject({
      method: 'GET',
      url,
      headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    });

  it('sends a script in brotli, gzip or as it is, as the browser accepts, and says it varies', async () => {
    const cases: Array<[accept: string | undefined, encoding: string | undefined]> = [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0.5, gzip', 'gzip'],
      ['identity', undefined],
      [undefined, undefined],
    ];
    for (const [accept, encoding] of cases) {
      const res = await get('/assets/index-abc.js', accept);
      expect(res.statusCode, accept).toBe(200);
      expect(res.headers['content-encoding'], accept).toBe(encoding);
      expect(res.headers['content-type'], accept).toMatch(/^text\/javascript|^application\/javascript/);
      expect(res.headers['cache-control'], accept).toBe('public, max-age=31536000, immutable');
      expect(varyNames(res), accept).toContain('accept-encoding');
      expect(decoded(res), accept).toBe(SCRIPT);
      expect(res.rawPayload.length, accept).toBe(Number(res.headers['content-length']));
      if (encoding) expect(res.rawPayload.length, accept).toBeLessThan(SCRIPT.length / 10);
    }
  });

  it('sends index.html compressed for client routes too, never cached', async () => {
    for (const url of ['/', '/topics/42', '/index.html']) {
      const res = await get(url, 'gzip, deflate, br');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(varyNames(res), url).toContain('accept-encoding');
      expect(decoded(res), url).toBe(INDEX);
    }
  });

  it('sends a file without compressed copies as it is', async () => {
    const res = await get('/manifest.webmanifest', 'gzip, br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(res.body).toBe(MANIFEST);
  });
});

describeEachDatabase('API answers, compressed', (kind) => {
  const server = useTestServer(kind);

  it('compresses an answer of 1 KB and more when the client accepts it, and not a smaller one', async () => {
    const alice = await signedIn(server);
    const topic = await buildTopic(server, alice);
    await buildPost(server, alice, topic.id, 'A long post about the evacuation plan. '.repeat(60));
    const url = `/api/topics/${topic.id}/posts`;
    const plain = await as(server, alice).get(url);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);

    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
    ]) {
      const res = await server.request({
        method: 'GET',
        url,
        headers: { ...alice.headers, 'accept-encoding': accept },
      });
      expect(res.statusCode, accept).toBe(200);
      expect(res.headers['content-encoding'], accept).toBe(encoding);
      expect(res.headers['content-type'], accept).toMatch(/^application\/json/);
      expect(varyNames(res), accept).toContain('accept-encoding');
      expect(res.rawPayload.length, accept).toBeLessThan(plain.rawPayload.length / 2);
      expect(JSON.parse(decoded(res)), accept).toEqual(plain.json());
    }

    const small = await server.request({
      method: 'GET',
      url: '/api/health',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(small.statusCode).toBe(200);
    expect(small.rawPayload.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json().data.status).toBe('ok');
  });

  it('compresses error answers in the envelope too', async () => {
    const res = await server.request({
      method: 'GET',
      url: `/api/no/such/route/${'x'.repeat(1200)}`,
      headers: { 'accept-encoding': 'br' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-encoding']).toBe('br');
    expect(JSON.parse(decoded(res))).toMatchObject({ code: expect.any(Number), message: expect.any(String) });
  });

  it('sends attachment downloads as they are stored, with their Content-Length', async () => {
    const alice = await signedIn(server);
    const topic = await buildTopic(server, alice);
    const text = Buffer.from('plain notes, easy to compress. '.repeat(200));
    const [image, file] = await uploaded(server, alice, topic.id, [
      { name: 'dot.png', content: PNG, type: 'image/png' },
      { name: 'notes.txt', content: text, type: 'text/plain' },
    ]);
    for (const [attachment, content] of [
      [image!, PNG],
      [file!, text],
    ] as const) {
      const res = await server.request({
        method: 'GET',
        url: attachment.url,
        headers: { ...alice.headers, 'accept-encoding': 'gzip, deflate, br' },
      });
      expect(res.statusCode, attachment.fileName).toBe(200);
      expect(res.headers['content-encoding'], attachment.fileName).toBeUndefined();
      expect(res.headers['content-length'], attachment.fileName).toBe(String(content.length));
      expect(res.rawPayload.equals(content), attachment.fileName).toBe(true);
    }
  });
});
