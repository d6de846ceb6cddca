import { ErrorCode } from '@btalk/contracts';
import { expect, it } from 'vitest';
import { UploadCleaner } from '../../files/uploadCleaner.ts';
import { newId } from '../../ids.ts';
import { type AttachmentData, PNG, storedFileKeys, upload, uploaded } from '../../test/attachments.ts';
import { describeEachDatabase } from '../../test/db.ts';
import type { TestServer } from '../../test/server.ts';
import { useTestServer } from '../../test/server.ts';
import { signedIn } from '../../test/session.ts';
import { as, buildTopic, dataOf } from '../../test/topics.ts';

/** A file of several S3 parts (over 5 MiB), not periodic. */
const BIG = Buffer.from(Array.from({ length: 6 * 1024 * 1024 + 123 }, (_, i) => (i * 31 + (i >> 11)) & 0xff));

async function storageKey(server: TestServer, attachmentId: string): Promise<string> {
  const row = await server.ctx.db.kysely
    .selectFrom('attachments')
    .select('storage_key')
    .where('id', '=', attachmentId)
    .executeTakeFirstOrThrow();
  return row.storage_key;
}

describeEachDatabase('attachments in an S3 store', (kind) => {
  const server = useTestServer(kind, { S3_PREFIX: 'btalk/files' }, { s3: true });

  it('stores uploads as objects under S3_PREFIX and streams the same bytes back with the same headers', async () => {
    const alice = await signedIn(server);
    const t = await buildTopic(server, alice);
    const [image, csv, big] = await uploaded(server, alice, t.id, [
      { name: 'photo.txt', content: PNG, type: 'text/plain' },
      { name: 'รายงาน.csv', content: Buffer.from('a,b\n1,2\n') },
      { name: 'big.bin', content: BIG },
    ]);
    expect(image).toMatchObject({ contentType: 'image/png', kind: 'image', sizeBytes: PNG.length });
    expect(big).toMatchObject({ sizeBytes: BIG.length });
    const objects = await server.s3!.keys();
    for (const file of [image, csv, big]) {
      expect(objects).toContain(`btalk/files/${await storageKey(server, file!.id)}`);
    }

    const shown = await server.request({ method: 'GET', url: image!.url, headers: alice.headers });
    expect(shown.statusCode).toBe(200);
    expect(shown.rawPayload.equals(PNG)).toBe(true);
    expect(shown.headers['content-type']).toBe('image/png');
    expect(shown.headers['content-disposition']).toMatch(/^inline; filename="photo.txt"/);
    expect(shown.headers['x-content-type-options']).toBe('nosniff');
    expect(shown.headers['content-security-policy']).toContain("default-src 'none'");
    const thai = await server.request({ method: 'GET', url: csv!.url, headers: alice.headers });
    expect(thai.headers['content-type']).toBe('application/octet-stream');
    expect(thai.headers['content-disposition']).toContain(
      `filename*=UTF-8''${encodeURIComponent('รายงาน.csv')}`,
    );
    expect(thai.body).toBe('a,b\n1,2\n');
    const whole = await server.request({ method: 'GET', url: big!.url, headers: alice.headers });
    expect(whole.headers['content-length']).toBe(String(BIG.length));
    expect(whole.rawPayload.equals(BIG)).toBe(true);
  });

  it('keeps the same checks: a session, and the topic’s readers only', async () => {
    const alice = await signedIn(server);
    const eve = await signedIn(server);
    const t = await buildTopic(server, alice, { visibility: 'members' });
    const [file] = await uploaded(server, alice, t.id, [{ name: 'a.png', content: PNG }]);
    expect((await server.request({ method: 'GET', url: file!.url })).statusCode).toBe(401);
    const hidden = await server.request({ method: 'GET', url: file!.url, headers: eve.headers });
    expect(hidden.statusCode).toBe(404);
    expect((await upload(server, eve, t.id, [{ name: 'b.png', content: PNG }])).statusCode).toBe(404);
  });

  it('answers 404 for a file whose object is gone, as for a missing file on the disk', async () => {
    const alice = await signedIn(server);
    const t = await buildTopic(server, alice);
    const [file] = await uploaded(server, alice, t.id, [
      { name: 'a.txt', content: Buffer.from('soon gone') },
    ]);
    await server.ctx.files.delete(await storageKey(server, file!.id));
    const gone = await server.request({ method: 'GET', url: file!.url, headers: alice.headers });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().code).toBe(ErrorCode.notFound);
  });

  it('removes the objects of a deleted post and of uploads never posted', async () => {
    const alice = await signedIn(server);
    const t = await buildTopic(server, alice);
    const [posted, abandoned] = await uploaded(server, alice, t.id, [
      { name: 'posted.txt', content: Buffer.from('posted') },
      { name: 'abandoned.txt', content: Buffer.from('abandoned') },
    ]);
    const postedKey = await storageKey(server, posted!.id);
    const abandonedKey = await storageKey(server, abandoned!.id);
    expect(await storedFileKeys(server)).toEqual(expect.arrayContaining([postedKey, abandonedKey]));

    const post = dataOf<{ id: string }>(
      await as(server, alice).post(`/api/topics/${t.id}/posts`, {
        clientId: newId(),
        attachmentIds: [posted!.id],
      }),
    );
    dataOf(await as(server, alice).delete(`/api/posts/${post.id}`));
    expect(await storedFileKeys(server)).not.toContain(postedKey);

    await server.ctx.db.kysely
      .updateTable('attachments')
      .set({ created_at: '2000-01-01T00:00:00.000Z' })
      .where('id', '=', abandoned!.id)
      .execute();
    const cleaner = new UploadCleaner({
      db: server.ctx.db.kysely,
      files: server.ctx.files,
      ttlHours: 24,
      now: () => new Date('2000-01-03T00:00:00.000Z'),
    });
    expect(await cleaner.tick()).toBe(1);
    expect(await storedFileKeys(server)).not.toContain(abandonedKey);
  });

  it('is ready when the store answers', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/ready' });
    expect(res.json()).toMatchObject({ code: 0, data: { status: 'ready' } });
  });
});

describeEachDatabase('upload limits with an S3 store', (kind) => {
  const server = useTestServer(
    kind,
    { MAX_UPLOAD_BYTES: String(7 * 1024 * 1024), UPLOAD_MAX_UNPOSTED_BYTES: String(8 * 1024 * 1024) },
    { s3: true },
  );

  it('leaves no object of a file over MAX_UPLOAD_BYTES or over the quota, and says why', async () => {
    const alice = await signedIn(server);
    const t = await buildTopic(server, alice);
    const before = await storedFileKeys(server);
    const tooBig = await upload(server, alice, t.id, [
      { name: 'big.bin', content: Buffer.alloc(7 * 1024 * 1024 + 1, 1) },
    ]);
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().message).toContain('MAX_UPLOAD_BYTES');
    expect(await storedFileKeys(server)).toEqual(before);

    await uploaded(server, alice, t.id, [{ name: 'first.bin', content: Buffer.alloc(2 * 1024 * 1024, 2) }]);
    const kept = await storedFileKeys(server);
    // 2 MiB held, 6.5 MiB more: past the quota after a first 5 MiB part of a multipart upload.
    const over = await upload(server, alice, t.id, [
      { name: 'second.bin', content: Buffer.alloc(6.5 * 1024 * 1024, 3) },
    ]);
    expect(over.statusCode).toBe(409);
    expect(over.json().code).toBe(ErrorCode.quotaExceeded);
    expect(over.json().message).toContain('UPLOAD_MAX_UNPOSTED_BYTES');
    expect(await storedFileKeys(server)).toEqual(kept);
  });
});

describeEachDatabase('signed downloads from an S3 store', (kind) => {
  const server = useTestServer(
    kind,
    { S3_SIGNED_DOWNLOADS: 'true', S3_SIGNED_URL_SECONDS: '120' },
    { s3: true },
  );

  it('redirects, after the same checks, to a short-lived address giving the same bytes and headers', async () => {
    const alice = await signedIn(server);
    const eve = await signedIn(server);
    const t = await buildTopic(server, alice, { visibility: 'members' });
    const [image, sheet] = await uploaded(server, alice, t.id, [
      { name: 'photo.png', content: PNG },
      { name: 'รายงาน.csv', content: Buffer.from('a,b\n1,2\n') },
    ]);
    dataOf(
      await as(server, alice).post(`/api/topics/${t.id}/posts`, {
        clientId: newId(),
        attachmentIds: [image!.id, sheet!.id],
      }),
    );
    // Nobody is sent to the store without a session or without the right to read the topic.
    const anonymous = await server.request({ method: 'GET', url: image!.url });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers.location).toBeUndefined();
    const stranger = await server.request({ method: 'GET', url: image!.url, headers: eve.headers });
    expect(stranger.statusCode).toBe(404);
    expect(stranger.headers.location).toBeUndefined();

    for (const [file, content, type, disposition] of [
      [image, PNG, 'image/png', /^inline; filename="photo.png"/],
      [
        sheet,
        Buffer.from('a,b\n1,2\n'),
        'application/octet-stream',
        /^attachment; filename="_+\.csv"; filename\*=UTF-8''/,
      ],
    ] as [AttachmentData, Buffer, string, RegExp][]) {
      const res = await server.request({ method: 'GET', url: file.url, headers: alice.headers });
      expect(res.statusCode).toBe(302);
      expect(res.headers['cache-control']).toBe('no-store');
      const location = new URL(String(res.headers.location));
      expect(location.origin + location.pathname).toBe(
        `${server.s3!.endpoint}/${server.s3!.bucket}/${await storageKey(server, file.id)}`,
      );
      expect(location.searchParams.get('X-Amz-Expires')).toBe('120');
      const fetched = await fetch(location);
      expect(fetched.status).toBe(200);
      expect(fetched.headers.get('content-type')).toBe(type);
      expect(fetched.headers.get('content-disposition')).toMatch(disposition);
      expect(fetched.headers.get('cache-control')).toBe('private, max-age=3600');
      expect(Buffer.from(await fetched.arrayBuffer()).equals(content)).toBe(true);
    }
  });

  it('lets the web app follow the redirect: the store is in the Content-Security-Policy’s connect-src', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/health' });
    const csp = String(res.headers['content-security-policy']);
    const connect = csp.split(';').find((d) => d.trim().startsWith('connect-src'));
    expect(connect).toContain(server.s3!.endpoint);
  });
});
