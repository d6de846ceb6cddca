import { ErrorCode, UPLOAD_REFUSAL } from '@btalk/contracts';
import { describe, expect, it } from 'vitest';
import { extensionOf } from '../../files/refusedTypes.ts';
import { PNG, storedKeys, upload } from '../../test/attachments.ts';
import { describeEachDatabase } from '../../test/db.ts';
import { useTestServer } from '../../test/server.ts';
import { signedIn } from '../../test/session.ts';
import { as, buildTopic } from '../../test/topics.ts';

const PATH = '/api/admin/uploads/refused-types';
/** The start of a Windows program (the "MZ" header): what file-type reads as an .exe. */
const PROGRAM = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(510)]);

describe('extensionOf', () => {
  it('reads the last extension in lower case, also behind trailing dots and blanks', () => {
    expect(extensionOf('report.PDF')).toBe('pdf');
    expect(extensionOf('invoice.pdf.exe')).toBe('exe');
    expect(extensionOf('setup.exe. ')).toBe('exe');
    expect(extensionOf('README')).toBe('');
    expect(extensionOf('.bashrc')).toBe('');
  });
});

describeEachDatabase('refused file types: /api/admin/uploads/refused-types and uploads', (kind) => {
  const server = useTestServer(kind, { UPLOAD_REFUSED_EXTENSIONS: 'exe,msi,bat,sh,js' });

  it('requires authentication, and is for administrators only', async () => {
    expect((await as(server, null).get(PATH)).statusCode).toBe(401);
    expect((await as(server, null).put(PATH, { extensions: [] })).statusCode).toBe(401);
    const member = await signedIn(server);
    const read = await as(server, member).get(PATH);
    expect(read.statusCode).toBe(403);
    expect(read.json().code).toBe(ErrorCode.forbidden);
    expect((await as(server, member).put(PATH, { extensions: [] })).statusCode).toBe(403);
  });

  it('names the field and the reason of a bad list', async () => {
    const admin = await signedIn(server, { role: 'admin' });
    const bad = await as(server, admin).put(PATH, { extensions: ['exe', '*.bat'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe(ErrorCode.validation);
    expect(bad.json().details[0]).toEqual({
      field: 'body.extensions.1',
      reason: 'must be letters and digits, such as exe',
    });
    const missing = await as(server, admin).put(PATH, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().details[0].field).toBe('body.extensions');
  });

  it('refuses the configured types by name before storing, and by content whatever the name', async () => {
    const alice = await signedIn(server);
    const t = await buildTopic(server, alice);
    const before = storedKeys(server).length;
    for (const file of [
      { name: 'setup.EXE', content: Buffer.from('not even a program') },
      { name: 'run.sh.', content: Buffer.from('echo hi') },
      // A program renamed to look like a document.
      { name: 'invoice.pdf', content: PROGRAM },
    ]) {
      const res = await upload(server, alice, t.id, [file]);
      expect(res.statusCode, file.name).toBe(400);
      expect(res.json().code).toBe(ErrorCode.validation);
      expect(res.json().details).toEqual([{ field: 'body.file', reason: UPLOAD_REFUSAL.refusedType }]);
      expect(res.json().message).toMatch(/are not allowed here/);
    }
    expect(storedKeys(server).length).toBe(before);
    expect((await upload(server, alice, t.id, [{ name: 'photo.png', content: PNG }])).statusCode).toBe(200);
  });

  it('lets an administrator replace the list, audited, and uploads follow it at once', async () => {
    const admin = await signedIn(server, { role: 'admin' });
    const alice = await signedIn(server);
    const t = await buildTopic(server, alice);
    const first = await as(server, admin).get(PATH);
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toEqual({
      extensions: ['bat', 'exe', 'js', 'msi', 'sh'],
      source: 'default',
      updatedAt: null,
      updatedBy: null,
    });

    const put = await as(server, admin).put(PATH, { extensions: ['.ZIP', 'exe', 'zip'] });
    expect(put.statusCode).toBe(200);
    expect(put.json().data).toMatchObject({
      extensions: ['exe', 'zip'],
      source: 'administrator',
      updatedAt: expect.any(String),
      updatedBy: { id: admin.user.id, displayName: admin.user.display_name },
    });
    expect((await as(server, admin).get(PATH)).json().data.extensions).toEqual(['exe', 'zip']);
    const audited = await server.ctx.db.kysely
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'uploads.refusedTypesChanged')
      .where('actor_id', '=', admin.user.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audited.details)).toEqual({ added: ['zip'], removed: ['bat', 'js', 'msi', 'sh'] });

    // A script is allowed now; an archive is not.
    expect(
      (await upload(server, alice, t.id, [{ name: 'run.sh', content: Buffer.from('echo hi') }])).statusCode,
    ).toBe(200);
    const zip = await upload(server, alice, t.id, [{ name: 'photos.zip', content: Buffer.from('PK') }]);
    expect(zip.statusCode).toBe(400);
    expect(zip.json().details[0].reason).toBe(UPLOAD_REFUSAL.refusedType);

    // An empty list refuses nothing.
    expect((await as(server, admin).put(PATH, { extensions: [] })).json().data.extensions).toEqual([]);
    expect((await upload(server, alice, t.id, [{ name: 'setup.exe', content: PROGRAM }])).statusCode).toBe(
      200,
    );
  });
});
