import { ErrorCode, UPLOAD_REFUSAL } from '@btalk/contracts';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../config/index.ts';
import { cleanFileName } from '../../files/fileNames.ts';
import { newId } from '../../ids.ts';
import { type AttachmentData, PNG, storedKeys, upload, uploaded } from '../../test/attachments.ts';
import { describeEachDatabase } from '../../test/db.ts';
import { testConfig, useTestServer } from '../../test/server.ts';
import { signedIn } from '../../test/session.ts';
import { as, buildTopic, dataOf } from '../../test/topics.ts';

describe('cleanFileName', () => {
  it('keeps the name and drops folders and control characters', () => {
    expect(cleanFileName('../../etc/passwd')).toBe('passwd');
    expect(cleanFileName('C:\\Users\\a\\รายงาน.pdf')).toBe('รายงาน.pdf');
    expect(cleanFileName('a"\nb.txt')).toBe('ab.txt');
    expect(cleanFileName('')).toBe('file');
  });

  it('drops Unicode format characters, so a name cannot disguise its extension', () => {
    // U+202E RIGHT-TO-LEFT OVERRIDE shows "invoice\u202Egpj.exe" as "invoiceexe.jpg".
    expect(cleanFileName('invoice\u202Egpj.exe')).toBe('invoicegpj.exe');
    expect(cleanFileName('\uFEFFre\u200Bport\u2066.pdf\u2069')).toBe('report.pdf');
    expect(cleanFileName('a\u2028b\u0085.txt')).toBe('ab.txt');
    // Thai letters and marks are not format characters: they stay.
    expect(cleanFileName('ใบแจ้งหนี้.pdf')).toBe('ใบแจ้งหนี้.pdf');
    // Nothing left, or only dots: a fallback name.
    expect(cleanFileName('\u202E\u200B')).toBe('file');
    expect(cleanFileName('..')).toBe('file');
    // Cut to 200 characters without splitting a surrogate pair.
    expect(Array.from(cleanFileName('😀'.repeat(300)))).toEqual(Array(200).fill('😀'));
  });
});

describe('upload quota configuration', () => {
  it('has defaults and names a bad variable', () => {
    expect(testConfig().uploads).toMatchObject({
      maxUnpostedFiles: 20,
      maxUnpostedBytes: 100 * 1024 * 1024,
      unpostedTtlHours: 24,
    });
    expect(() => testConfig({ UPLOAD_MAX_UNPOSTED_FILES: '0' })).toThrow(ConfigError);
    expect(() => testConfig({ UPLOAD_MAX_UNPOSTED_BYTES: 'lots' })).toThrow(/UPLOAD_MAX_UNPOSTED_BYTES/);
    expect(() => testConfig({ UPLOAD_UNPOSTED_TTL_HOURS: '0' })).toThrow(/UPLOAD_UNPOSTED_TTL_HOURS/);
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

  it('serves a PDF (by its content) inline for the browser’s viewer, and a file named .pdf that is not one as a download', async () => {
    const alice = await signedIn(server);
    const t = await buildTopic(server, alice);
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
    const [real, fake] = dataOf<{ attachments: AttachmentData[] }>(
      await upload(server, alice, t.id, [
        { name: 'ใบแจ้งหนี้.pdf', content: pdf },
        { name: 'notes.pdf', content: Buffer.from('<html><script>alert(1)</script>') },
      ]),
    ).attachments;
    expect(real).toMatchObject({ contentType: 'application/pdf', kind: 'file' });
    const shown = await server.request({ method: 'GET', url: real!.url, headers: alice.headers });
    expect(shown.headers['content-type']).toBe('application/pdf');
    expect(shown.headers['content-disposition']).toMatch(/^inline; filename="_+\.pdf"; filename\*=UTF-8''/);
    expect(shown.headers['x-content-type-options']).toBe('nosniff');
    expect(shown.rawPayload.equals(pdf)).toBe(true);
    const download = await server.request({ method: 'GET', url: fake!.url, headers: alice.headers });
    expect(download.headers['content-type']).toBe('application/octet-stream');
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename="notes.pdf"/);
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

  it('stores and serves a file name without its format characters', async () => {
    const alice = await signedIn(server);
    const t = await buildTopic(server, alice);
    const [file] = await uploaded(server, alice, t.id, [
      // (An .exe would be refused: executables are by default.)
      { name: 'invoice\u202Egpj.zip', content: Buffer.from('PK not really') },
    ]);
    expect(file!.fileName).toBe('invoicegpj.zip');
    const row = await server.ctx.db.kysely
      .selectFrom('attachments')
      .select('file_name')
      .where('id', '=', file!.id)
      .executeTakeFirstOrThrow();
    expect(row.file_name).toBe('invoicegpj.zip');
    const served = await server.request({ method: 'GET', url: file!.url, headers: alice.headers });
    expect(served.headers['content-disposition']).toBe(
      `attachment; filename="invoicegpj.zip"; filename*=UTF-8''invoicegpj.zip`,
    );

    // A row stored before names were cleaned is shown and served cleaned too.
    await server.ctx.db.kysely
      .updateTable('attachments')
      .set({ file_name: 'photo\u202Egnp.js' })
      .where('id', '=', file!.id)
      .execute();
    const post = dataOf<{ attachments: AttachmentData[] }>(
      await as(server, alice).post(`/api/topics/${t.id}/posts`, {
        clientId: newId(),
        attachmentIds: [file!.id],
      }),
    );
    expect(post.attachments[0]!.fileName).toBe('photognp.js');
    const old = await server.request({ method: 'GET', url: file!.url, headers: alice.headers });
    expect(old.headers['content-disposition']).toBe(
      `attachment; filename="photognp.js"; filename*=UTF-8''photognp.js`,
    );
  });

  it('requires a session and a valid id to download, and refuses uploads into an archived topic', async () => {
    const alice = await signedIn(server);
    const t = await buildTopic(server, alice);
    const [file] = await uploaded(server, alice, t.id, [{ name: 'a.png', content: PNG }]);
    const anonymous = await server.request({ method: 'GET', url: file!.url });
    expect(anonymous.statusCode).toBe(401);
    const bad = await server.request({
      method: 'GET',
      url: `/api/attachments/${'x'.repeat(65)}`,
      headers: alice.headers,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].field).toBe('params.attachmentId');
    const missing = await server.request({
      method: 'GET',
      url: `/api/attachments/${newId()}`,
      headers: alice.headers,
    });
    expect(missing.statusCode).toBe(404);
    const badTopic = await upload(server, alice, 'x'.repeat(65), [{ name: 'a.png', content: PNG }]);
    expect(badTopic.statusCode).toBe(400);
    expect(badTopic.json().details[0].field).toBe('params.topicId');

    dataOf(await as(server, alice).post(`/api/topics/${t.id}/archive`));
    const archived = await upload(server, alice, t.id, [{ name: 'b.png', content: PNG }]);
    expect(archived.statusCode).toBe(403);
    expect(archived.json().code).toBe(ErrorCode.forbidden);
    // The file not yet in a post stays its uploader's.
    expect((await server.request({ method: 'GET', url: file!.url, headers: alice.headers })).statusCode).toBe(
      200,
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
    expect(big.json().details).toEqual([{ field: 'body.file', reason: UPLOAD_REFUSAL.tooLarge }]);
    const many = await upload(
      server,
      alice,
      t.id,
      [1, 2, 3].map((i) => ({ name: `${i}.png`, content: PNG })),
    );
    expect(many.statusCode).toBe(413);
    expect(many.json().message).toContain('MAX_UPLOAD_FILES');
    expect(many.json().details).toEqual([{ field: 'body.file', reason: UPLOAD_REFUSAL.tooMany }]);
    const rows = await server.ctx.db.kysely
      .selectFrom('attachments')
      .selectAll()
      .where('topic_id', '=', t.id)
      .execute();
    expect(rows).toEqual([]);
  });
});

describeEachDatabase('the quota of files not yet in a post', (kind) => {
  const server = useTestServer(kind, { UPLOAD_MAX_UNPOSTED_FILES: '3', UPLOAD_MAX_UNPOSTED_BYTES: '4096' });
  const small = (name: string) => ({ name, content: Buffer.from(`content of ${name}`) });

  async function unpostedRows(uploaderId: string) {
    return server.ctx.db.kysely
      .selectFrom('attachments')
      .select(['id', 'storage_key'])
      .where('uploader_id', '=', uploaderId)
      .where('post_id', 'is', null)
      .execute();
  }

  it('counts files: the one past UPLOAD_MAX_UNPOSTED_FILES is refused and not stored, posting frees room', async () => {
    const alice = await signedIn(server);
    const bob = await signedIn(server);
    const t = await buildTopic(server, alice);
    const [a, b] = await uploaded(server, alice, t.id, [small('a.txt'), small('b.txt')]);
    const disk = storedKeys(server).length;

    // Two more in one request when one is left: neither is kept.
    const both = await upload(server, alice, t.id, [small('c.txt'), small('d.txt')]);
    expect(both.statusCode).toBe(409);
    expect(both.json().code).toBe(ErrorCode.quotaExceeded);
    expect(both.json().message).toContain('UPLOAD_MAX_UNPOSTED_FILES');
    expect(both.json().message).toMatch(/post the files you uploaded, or wait/);
    expect(both.json().details).toEqual([{ field: 'body.file', reason: UPLOAD_REFUSAL.unpostedFiles }]);
    expect(await unpostedRows(alice.user.id)).toHaveLength(2);
    expect(storedKeys(server)).toHaveLength(disk);

    await uploaded(server, alice, t.id, [small('c.txt')]);
    const fourth = await upload(server, alice, t.id, [small('d.txt')]);
    expect(fourth.statusCode).toBe(409);
    expect(fourth.json().code).toBe(ErrorCode.quotaExceeded);
    expect(await unpostedRows(alice.user.id)).toHaveLength(3);
    expect(storedKeys(server)).toHaveLength(disk + 1);

    // Someone else's quota is their own.
    await uploaded(server, bob, t.id, [small('bob.txt')]);

    // A post takes two in: room for two more.
    dataOf(
      await as(server, alice).post(`/api/topics/${t.id}/posts`, {
        clientId: newId(),
        attachmentIds: [a!.id, b!.id],
      }),
    );
    await uploaded(server, alice, t.id, [small('d.txt'), small('e.txt')]);
    expect(await unpostedRows(alice.user.id)).toHaveLength(3);
  });

  it('counts uploads of one person sent side by side one after the other', async () => {
    const erin = await signedIn(server);
    const t = await buildTopic(server, erin);
    await uploaded(server, erin, t.id, [small('a.txt'), small('b.txt')]);
    const disk = storedKeys(server).length;
    // One place left, two uploads at once: both find it free before storing, one is recorded.
    const answers = await Promise.all([
      upload(server, erin, t.id, [small('c.txt')]),
      upload(server, erin, t.id, [small('d.txt')]),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(await unpostedRows(erin.user.id)).toHaveLength(3);
    expect(storedKeys(server)).toHaveLength(disk + 1);
  });

  it('counts bytes: a file past UPLOAD_MAX_UNPOSTED_BYTES is refused and not left on the disk', async () => {
    const carol = await signedIn(server);
    const dave = await signedIn(server);
    const t = await buildTopic(server, carol);
    const [first] = await uploaded(server, carol, t.id, [
      { name: 'first.bin', content: Buffer.alloc(3000, 1) },
    ]);
    const disk = storedKeys(server);

    const over = await upload(server, carol, t.id, [{ name: 'second.bin', content: Buffer.alloc(2000, 2) }]);
    expect(over.statusCode).toBe(409);
    expect(over.json().code).toBe(ErrorCode.quotaExceeded);
    expect(over.json().message).toContain('UPLOAD_MAX_UNPOSTED_BYTES');
    expect(storedKeys(server).sort()).toEqual([...disk].sort());
    expect((await unpostedRows(carol.user.id)).map((r) => r.id)).toEqual([first!.id]);

    // Within the bytes left, it fits; another person has the whole quota.
    await uploaded(server, carol, t.id, [{ name: 'fits.bin', content: Buffer.alloc(1000, 3) }]);
    await uploaded(server, dave, t.id, [{ name: 'dave.bin', content: Buffer.alloc(4000, 4) }]);

    // Posting frees the bytes.
    dataOf(
      await as(server, carol).post(`/api/topics/${t.id}/posts`, {
        clientId: newId(),
        attachmentIds: [first!.id],
      }),
    );
    await uploaded(server, carol, t.id, [{ name: 'second.bin', content: Buffer.alloc(2000, 2) }]);
  });
});
