import { ErrorCode } from '@btalk/contracts';
import { describe, expect, it } from 'vitest';
import { newId } from '../../ids.ts';
import { describeEachDatabase } from '../../test/db.ts';
import { type TestServer, useTestServer } from '../../test/server.ts';
import { type SignedIn, signedIn } from '../../test/session.ts';
import { as, buildTopic, dataOf } from '../../test/topics.ts';
import { cleanFileName } from './attachments.ts';

/** A 1x1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

function multipart(files: { name: string; content: Buffer; type?: string }[]) {
  const boundary = `----btalk${newId()}`;
  const parts = files.map((f) =>
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${f.name}"\r\n` +
          `Content-Type: ${f.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      f.content,
      Buffer.from('\r\n'),
    ]),
  );
  return {
    payload: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

interface AttachmentData {
  id: string;
  fileName: string;
  contentType: string;
  kind: string;
  sizeBytes: number;
  url: string;
}

function upload(
  server: TestServer,
  who: SignedIn | null,
  topicId: string,
  files: Parameters<typeof multipart>[0],
) {
  const body = multipart(files);
  return server.request({
    method: 'POST',
    url: `/api/topics/${topicId}/attachments`,
    payload: body.payload,
    headers: { ...body.headers, ...(who?.headers ?? {}) },
  });
}

describe('cleanFileName', () => {
  it('keeps the name and drops folders and control characters', () => {
    expect(cleanFileName('../../etc/passwd')).toBe('passwd');
    expect(cleanFileName('C:\\Users\\a\\รายงาน.pdf')).toBe('รายงาน.pdf');
    expect(cleanFileName('a"\nb.txt')).toBe('ab.txt');
    expect(cleanFileName('')).toBe('file');
  });
});

describeEachDatabase('attachments API', (kind) => {
  const server = useTestServer(kind);

  it('requires authentication and a multipart body with a file', async () => {
    const alice = await signedIn(server);
    const t = await buildTopic(server, alice);
    expect((await upload(server, null, t.id, [{ name: 'a.png', content: PNG }])).statusCode).toBe(401);
    const json = await as(server, alice).post(`/api/topics/${t.id}/attachments`, { file: 'x' });
    expect(json.statusCode).toBe(400);
    expect(json.json().details[0].field).toBe('headers.content-type');
    const none = await upload(server, alice, t.id, []);
    expect(none.statusCode).toBe(400);
  });

  it('takes the type from the content, stores it, and serves it with safe headers', async () => {
    const alice = await signedIn(server);
    const t = await buildTopic(server, alice);
    const res = await upload(server, alice, t.id, [
      { name: 'photo.txt', content: PNG, type: 'text/plain' },
      { name: 'evil.png', content: Buffer.from('<script>alert(1)</script>'), type: 'image/png' },
      { name: 'รายงาน ประจำเดือน.csv', content: Buffer.from('a,b\n1,2\n') },
    ]);
    const [image, fake, csv] = dataOf<{ attachments: AttachmentData[] }>(res).attachments;
    expect(image).toMatchObject({
      fileName: 'photo.txt',
      contentType: 'image/png',
      kind: 'image',
      sizeBytes: PNG.length,
    });
    expect(fake).toMatchObject({ contentType: 'application/octet-stream', kind: 'file' });
    expect(csv).toMatchObject({ fileName: 'รายงาน ประจำเดือน.csv', kind: 'file' });

    const shown = await server.request({ method: 'GET', url: image!.url, headers: alice.headers });
    expect(shown.statusCode).toBe(200);
    expect(shown.rawPayload.equals(PNG)).toBe(true);
    expect(shown.headers['content-type']).toBe('image/png');
    expect(shown.headers['content-disposition']).toMatch(/^inline; filename="photo.txt"/);
    expect(shown.headers['x-content-type-options']).toBe('nosniff');
    expect(shown.headers['content-security-policy']).toContain("default-src 'none'");
    const download = await server.request({ method: 'GET', url: fake!.url, headers: alice.headers });
    expect(download.headers['content-type']).toBe('application/octet-stream');
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename="evil.png"/);
    const thai = await server.request({ method: 'GET', url: csv!.url, headers: alice.headers });
    expect(thai.headers['content-disposition']).toContain(
      `filename*=UTF-8''${encodeURIComponent('รายงาน ประจำเดือน.csv')}`,
    );
  });

  it('attaches uploads to a post, only the uploader’s and only once', async () => {
    const alice = await signedIn(server);
    const bob = await signedIn(server);
    const t = await buildTopic(server, alice);
    const [file] = dataOf<{ attachments: AttachmentData[] }>(
      await upload(server, alice, t.id, [{ name: 'a.png', content: PNG }]),
    ).attachments;
    // Not yet in a post: only the uploader sees it.
    expect((await server.request({ method: 'GET', url: file!.url, headers: bob.headers })).statusCode).toBe(
      404,
    );
    const stolen = await as(server, bob).post(`/api/topics/${t.id}/posts`, {
      clientId: newId(),
      attachmentIds: [file!.id],
    });
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json().details[0].field).toBe('body.attachmentIds');
    const post = dataOf<{ id: string; attachments: AttachmentData[] }>(
      await as(server, alice).post(`/api/topics/${t.id}/posts`, {
        clientId: newId(),
        attachmentIds: [file!.id],
      }),
    );
    expect(post.attachments.map((a) => a.id)).toEqual([file!.id]);
    expect((await server.request({ method: 'GET', url: file!.url, headers: bob.headers })).statusCode).toBe(
      200,
    );
    const twice = await as(server, alice).post(`/api/topics/${t.id}/posts`, {
      clientId: newId(),
      attachmentIds: [file!.id],
    });
    expect(twice.statusCode).toBe(400);
    dataOf(await as(server, alice).delete(`/api/posts/${post.id}`));
    expect((await server.request({ method: 'GET', url: file!.url, headers: alice.headers })).statusCode).toBe(
      404,
    );
  });

  it('hides files of members-only topics from non-members (404) and refuses uploads there', async () => {
    const alice = await signedIn(server);
    const eve = await signedIn(server);
    const t = await buildTopic(server, alice, { visibility: 'members' });
    const [file] = dataOf<{ attachments: AttachmentData[] }>(
      await upload(server, alice, t.id, [{ name: 'a.png', content: PNG }]),
    ).attachments;
    dataOf(
      await as(server, alice).post(`/api/topics/${t.id}/posts`, {
        clientId: newId(),
        attachmentIds: [file!.id],
      }),
    );
    const seen = await server.request({ method: 'GET', url: file!.url, headers: eve.headers });
    expect(seen.statusCode).toBe(404);
    expect(seen.json().code).toBe(ErrorCode.notFound);
    expect((await upload(server, eve, t.id, [{ name: 'b.png', content: PNG }])).statusCode).toBe(404);
  });
});

describeEachDatabase('attachment limits', (kind) => {
  const server = useTestServer(kind, { MAX_UPLOAD_BYTES: '2048', MAX_UPLOAD_FILES: '2' });

  it('refuses a file over MAX_UPLOAD_BYTES and more files than MAX_UPLOAD_FILES with 413', async () => {
    const alice = await signedIn(server);
    const t = await buildTopic(server, alice);
    const big = await upload(server, alice, t.id, [{ name: 'big.bin', content: Buffer.alloc(3000, 1) }]);
    expect(big.statusCode).toBe(413);
    expect(big.json().code).toBe(ErrorCode.tooLarge);
    expect(big.json().message).toContain('MAX_UPLOAD_BYTES');
    const many = await upload(
      server,
      alice,
      t.id,
      [1, 2, 3].map((i) => ({ name: `${i}.png`, content: PNG })),
    );
    expect(many.statusCode).toBe(413);
    expect(many.json().message).toContain('MAX_UPLOAD_FILES');
    const rows = await server.ctx.db.kysely
      .selectFrom('attachments')
      .selectAll()
      .where('topic_id', '=', t.id)
      .execute();
    expect(rows).toEqual([]);
  });
});
