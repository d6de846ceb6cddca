import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Post, PostPage } from '@btalk/contracts';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/index.ts';
import { type DatabaseKind, openDatabase } from '../db/index.ts';
import { LocalFileStorage } from '../files/storage.ts';
import { multipart } from '../test/attachments.ts';
import { describeEachDatabase, TEST_DATABASE_URL } from '../test/db.ts';
import { buildUser } from '../test/factories.ts';
import { useLocalS3 } from '../test/s3.ts';
import {
  type Api,
  apiAs,
  type PreparedData,
  prepareData,
  type ServerProcess,
  startServerProcess,
} from '../test/serverProcess.ts';
import { acceptCurrentTerms, openSession } from '../test/session.ts';
import { runBackupCli, runRestoreCli } from './cli.ts';
import { BackupError, createBackup, restoreBackup } from './index.ts';
import { backupFilePath, DATA_DIR_SECRETS, type Manifest, readManifest } from './manifest.ts';

/*
 * Issue 16: "a test backs up a running instance under writes, restores into a fresh one and finds
 * every acknowledged post, file and answer". The real server runs as a child process (SQLite in a
 * DATA_DIR, or a schema of the test PostgreSQL); writers post (some with uploaded files) and answer a
 * call-tree event while the real `scripts/backup.ts` runs; `scripts/restore.ts` restores into a fresh
 * DATA_DIR / schema; a second server on it must show everything acknowledged before the backup began,
 * to the same people with the same sessions (the token secret came along in the backup).
 */

const scripts = fileURLToPath(new URL('../../../../scripts/', import.meta.url));

/** Posting writers, besides one answering writer per report. */
const POST_WRITERS = 4;
/** The people under the admin in the call tree; each answers again and again. */
const REPORTS = 3;
/** No writer starts a request after this many in all. */
const MAX_REQUESTS = 3000;
/** Preparing a database and stopping servers, on a machine that other test runs may load. */
const HOOK_TIMEOUT_MS = 120_000;

/** Runs `scripts/<name>.ts` as `npm run <name>` does (Node with type stripping), with `env` added. */
function runScript(
  name: 'backup' | 'restore',
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--experimental-strip-types',
        '--disable-warning=ExperimentalWarning',
        path.join(scripts, `${name}.ts`),
        ...args,
      ],
      { env: { ...process.env, BTALK_ENV: 'test', ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

/** The configuration the server and the commands read from `env`. */
function configOf(env: Record<string, string>) {
  return loadConfig({ BTALK_ENV: 'test', ...env });
}

/** The `data` of an answer that must be `code: 0`. */
async function dataOf<T>(res: Response, what: string): Promise<T> {
  const answer = (await res.json()) as { code: number; data: T };
  if (answer.code !== 0) throw new Error(`${what} answered ${res.status} ${JSON.stringify(answer)}`);
  return answer.data;
}

/** Waits (polling) until `done()`; fails naming `what` after `ms`. */
async function until(what: string, done: () => boolean, ms = 90_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Every post of a topic, paging with the cursor. */
async function listAllPosts(api: Api, topicId: string): Promise<Post[]> {
  const posts: Post[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const page: PostPage = await dataOf<PostPage>(
      await api(`/api/topics/${topicId}/posts?limit=100${query}`),
      'listing the posts',
    );
    posts.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return posts;
}

/** A post the server acknowledged, with the files it carries. */
interface AckedPost {
  id: string;
  number: number;
  body: string;
  files: { id: string; content: Buffer }[];
}

/** A call-tree answer the server acknowledged. */
interface AckedAnswer {
  id: string;
  clientId: string;
  personId: string;
  optionId: string;
  note: string;
}

/** What the writers did. */
interface Writes {
  posts: AckedPost[];
  answers: AckedAnswer[];
  refused: string[];
  inFlight: number;
  started: number;
  stop: boolean;
}

/** A person of the test with an open session. */
interface Person {
  userId: string;
  sessionId: string;
}

/** Posts (every third with one or two uploaded files) until `writes.stop`. */
async function postWriter(api: Api, topicId: string, w: number, writes: Writes): Promise<void> {
  while (!writes.stop && writes.started < MAX_REQUESTS) {
    writes.started += 1;
    const n = writes.started;
    writes.inFlight += 1;
    try {
      const files =
        n % 3 === 0
          ? Array.from({ length: 1 + (n % 2) }, (_, i) => ({
              name: `report-${n}-${i}.bin`,
              // A text start: no content sniffing takes random bytes for a refused type.
              content: Buffer.concat([
                Buffer.from(`BTalk backup test ${n}-${i}\n`),
                randomBytes(1000 + ((n * 7919 + i * 104729) % 40_000)),
              ]),
            }))
          : [];
      let attachmentIds: string[] = [];
      if (files.length > 0) {
        const body = multipart(files);
        const uploaded = await dataOf<{ attachments: { id: string }[] }>(
          await api(`/api/topics/${topicId}/attachments`, {
            method: 'POST',
            body: body.payload,
            headers: body.headers,
          }),
          'an upload',
        );
        attachmentIds = uploaded.attachments.map((a) => a.id);
      }
      const sent = {
        clientId: `backup-${w}-${randomUUID()}`,
        body: `Post ${n} of writer ${w}: ${randomUUID()} ✓`,
      };
      const post = await dataOf<Post>(
        await api(`/api/topics/${topicId}/posts`, {
          method: 'POST',
          body: JSON.stringify({ ...sent, attachmentIds }),
        }),
        'a post',
      );
      writes.posts.push({
        id: post.id,
        number: post.number,
        body: sent.body,
        files: files.map((f, i) => ({ id: attachmentIds[i]!, content: f.content })),
      });
    } catch (error) {
      writes.refused.push((error as Error).message);
    } finally {
      writes.inFlight -= 1;
    }
  }
}

/** Answers the event as `person`, again and again, until `writes.stop`. */
async function answerWriter(api: Api, eventId: string, person: Person, writes: Writes): Promise<void> {
  while (!writes.stop && writes.started < MAX_REQUESTS) {
    writes.started += 1;
    writes.inFlight += 1;
    try {
      const sent = {
        id: randomUUID(),
        optionId: writes.started % 2 === 0 ? 'safe' : 'need_help',
        note: `Answer ${writes.started}: ${randomBytes(4).toString('hex')}`,
      };
      const answer = await dataOf<{ id: string }>(
        await api(`/api/calltree/events/${eventId}/answers`, { method: 'POST', body: JSON.stringify(sent) }),
        'an answer',
      );
      writes.answers.push({
        id: answer.id,
        clientId: sent.id,
        personId: person.userId,
        optionId: sent.optionId,
        note: sent.note,
      });
    } catch (error) {
      writes.refused.push((error as Error).message);
    } finally {
      writes.inFlight -= 1;
    }
  }
}

/** A fresh target for a restore: a new DATA_DIR, and on PostgreSQL a schema nobody has made yet. */
function freshTarget(kind: DatabaseKind, cleanups: (() => Promise<void>)[]): Record<string, string> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'btalk-restored-'));
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  if (kind === 'sqlite') return { DATA_DIR: dataDir, DATABASE_URL: '' };
  const schema = `btalk_test_${randomBytes(6).toString('hex')}`;
  cleanups.push(() => dropSchema(schema));
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { DATA_DIR: dataDir, DATABASE_URL: url.toString() };
}

async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(`drop schema if exists ${schema} cascade`);
  } finally {
    await client.end();
  }
}

/** The tables of a restore target's database (none: nothing was restored). */
async function targetTables(kind: DatabaseKind, env: Record<string, string>): Promise<string[]> {
  if (kind === 'sqlite') {
    return existsSync(path.join(env.DATA_DIR!, 'btalk.sqlite')) ? ['(a database file)'] : [];
  }
  const schema = new URL(env.DATABASE_URL!).searchParams.get('options')!.split('=')[1]!;
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      'select tablename as name from pg_tables where schemaname = $1',
      [schema],
    );
    return rows.map((r) => r.name);
  } finally {
    await client.end();
  }
}

/** Files in the storage folder of a DATA_DIR. */
function storedFiles(dataDir: string): string[] {
  const folder = path.join(dataDir, 'files');
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);
}

describeEachDatabase('backup and restore', (kind) => {
  let data: PreparedData;
  let serverEnv: Record<string, string>;
  let reports: Person[] = [];
  const servers: ServerProcess[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  let work: string;
  /** The backup taken under writes, and the target it was restored into (the first test). */
  let backupFolder: string | null = null;
  let restoredEnv: Record<string, string> | null = null;
  let firstFile: { postId: string; attachmentId: string } | null = null;

  beforeAll(async () => {
    data = await prepareData(kind);
    work = mkdtempSync(path.join(tmpdir(), 'btalk-backups-'));
    // The admin heads a small call tree of REPORTS people, written in before the server starts.
    const db = openDatabase({ databaseUrl: data.env.DATABASE_URL || undefined, dataDir: data.env.DATA_DIR! });
    try {
      const admin = await db.kysely
        .updateTable('users')
        .set({ role: 'admin' })
        .where('id', '=', data.userId)
        .returningAll()
        .executeTakeFirstOrThrow();
      for (let i = 0; i < REPORTS; i++) {
        const person = await acceptCurrentTerms(
          db.kysely,
          await buildUser(db.kysely, { manager_subject: admin.subject, display_name: `Report ${i}` }),
        );
        reports.push({ userId: person.id, sessionId: await openSession(db.kysely, person.id) });
      }
    } finally {
      await db.close();
    }
    // No JWT_SECRET: the server makes DATA_DIR/token-secret, which the backup must carry.
    serverEnv = { ...data.env, JWT_SECRET: '', UPLOAD_RATE_LIMIT_PER_MINUTE: '100000' };
  }, HOOK_TIMEOUT_MS);

  afterAll(async () => {
    for (const server of servers) await server.kill9();
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
    rmSync(work, { recursive: true, force: true });
    await data?.cleanup();
    reports = [];
  }, HOOK_TIMEOUT_MS);

  it('backs up a running instance under writes; a restored instance has every acknowledged post, file and answer', async () => {
    const first = await startServerProcess(serverEnv);
    servers.push(first);
    const dataDir = serverEnv.DATA_DIR!;
    const secret = readFileSync(path.join(dataDir, 'token-secret'), 'utf8').trim();
    // Everything the server keeps directly in DATA_DIR is the database, the attachments or a secret
    // the backup knows: a new secret file there must be added to DATA_DIR_SECRETS.
    const known = new Set<string>([
      'btalk.sqlite',
      'btalk.sqlite-wal',
      'btalk.sqlite-shm',
      'files',
      ...DATA_DIR_SECRETS,
    ]);
    expect(readdirSync(dataDir).filter((name) => !known.has(name))).toEqual([]);

    const admin = await apiAs(first, data, { secret });
    const topic = await dataOf<{ id: string }>(
      await admin('/api/topics', {
        method: 'POST',
        body: JSON.stringify({ title: 'Backed up while busy', visibility: 'organisation' }),
      }),
      'creating the topic',
    );
    const tree = await dataOf<{ tree: { id: string } }>(
      await admin('/api/calltree/trees', {
        method: 'POST',
        body: JSON.stringify({ name: 'Backup drill', source: 'directory', rootUserId: data.userId }),
      }),
      'building the tree',
    );
    const event = await dataOf<{ id: string }>(
      await admin(`/api/calltree/trees/${tree.tree.id}/events`, {
        method: 'POST',
        body: JSON.stringify({ title: 'Backup drill', message: 'Answer, please.', kind: 'drill' }),
      }),
      'starting the event',
    );
    const settings = await dataOf<{ vapidPublicKey: string | null }>(
      await admin('/api/me/notification-settings'),
      'the notification settings',
    );
    expect(settings.vapidPublicKey).toBeTruthy();

    const writes: Writes = { posts: [], answers: [], refused: [], inFlight: 0, started: 0, stop: false };
    const writers = [
      ...Array.from({ length: POST_WRITERS }, (_, w) => postWriter(admin, topic.id, w, writes)),
      ...(await Promise.all(reports.map((r) => apiAs(first, r, { secret })))).map((api, i) =>
        answerWriter(api, event.id, reports[i]!, writes),
      ),
    ];
    await until(
      'the first writes',
      () =>
        writes.posts.length >= 20 &&
        writes.posts.filter((p) => p.files.length > 0).length >= 5 &&
        writes.answers.length >= 2 * REPORTS,
    );

    // The backup starts: what was acknowledged so far must be in it; writers go on meanwhile.
    const before = { posts: [...writes.posts], answers: [...writes.answers] };
    const inFlightAtStart = writes.inFlight;
    backupFolder = path.join(work, 'under-writes');
    const backup = await runScript('backup', [backupFolder], serverEnv);
    const acknowledgedWhileBackingUp =
      writes.posts.length + writes.answers.length - before.posts.length - before.answers.length;
    writes.stop = true;
    await Promise.all(writers);
    expect(backup.code, backup.output).toBe(0);
    expect(backup.output).toContain('done: ');
    expect(writes.refused, first.output()).toEqual([]);
    // It ran while the server was busy: requests were on their way when it began, and the server
    // went on answering writes while it ran.
    expect(inFlightAtStart).toBeGreaterThan(0);
    expect(acknowledgedWhileBackingUp).toBeGreaterThan(0);

    // The folder and its files are the server user's only: it holds secrets.
    expect(statSync(backupFolder).mode & 0o777).toBe(0o700);
    const manifest = readManifest(backupFolder);
    for (const secret of manifest.secrets) {
      expect(statSync(path.join(backupFolder, 'secrets', secret.name)).mode & 0o777).toBe(0o600);
    }
    expect(statSync(path.join(backupFolder, manifest.database.file)).mode & 0o777).toBe(0o600);
    expect(manifest.secrets.map((s) => s.name)).toEqual(
      expect.arrayContaining(['token-secret', 'vapid.json']),
    );
    expect(manifest.database.kind).toBe(kind);
    expect(manifest.missingFiles).toEqual([]);
    await first.terminate();

    restoredEnv = freshTarget(kind, cleanups);
    const restore = await runScript('restore', [backupFolder], restoredEnv);
    expect(restore.code, restore.output).toBe(0);
    expect(restore.output).toContain('every table holds the rows the manifest counts');

    // The second server makes no secret of its own: the restored ones are there, so the sessions
    // and tokens of the first still work, and browsers stay subscribed to the same push key.
    const second = await startServerProcess({
      ...restoredEnv,
      JWT_SECRET: '',
      UPLOAD_RATE_LIMIT_PER_MINUTE: '100000',
    });
    servers.push(second);
    for (const name of DATA_DIR_SECRETS) {
      if (existsSync(path.join(dataDir, name))) {
        expect(readFileSync(path.join(restoredEnv.DATA_DIR!, name)), name).toEqual(
          readFileSync(path.join(dataDir, name)),
        );
      }
    }
    const restored = await apiAs(second, data, { secret });
    const restoredSettings = await dataOf<{ vapidPublicKey: string | null }>(
      await restored('/api/me/notification-settings'),
      'the restored notification settings',
    );
    expect(restoredSettings.vapidPublicKey).toBe(settings.vapidPublicKey);

    const posts = new Map((await listAllPosts(restored, topic.id)).map((p) => [p.id, p]));
    const lost = before.posts.filter((a) => {
      const post = posts.get(a.id);
      return (
        !post ||
        post.number !== a.number ||
        post.body !== a.body ||
        post.attachments.map((f) => f.id).join() !== a.files.map((f) => f.id).join()
      );
    });
    expect(lost, `${lost.length} acknowledged post(s) missing or changed after the restore`).toEqual([]);
    let files = 0;
    for (const post of before.posts) {
      for (const file of post.files) {
        const res = await restored(`/api/attachments/${file.id}`);
        expect(res.status, `attachment ${file.id}`).toBe(200);
        expect(Buffer.from(await res.arrayBuffer()).equals(file.content), `the bytes of ${file.id}`).toBe(
          true,
        );
        files += 1;
        firstFile ??= { postId: post.id, attachmentId: file.id };
      }
    }
    expect(files).toBeGreaterThanOrEqual(5);

    for (const report of reports) {
      const history = await dataOf<{
        answers: { id: string; clientId: string; optionId: string; note: string | null }[];
      }>(await restored(`/api/calltree/events/${event.id}/people/${report.userId}`), "a report's answers");
      const found = new Map(history.answers.map((a) => [a.id, a]));
      for (const acked of before.answers.filter((a) => a.personId === report.userId)) {
        expect(found.get(acked.id), `answer ${acked.id}`).toMatchObject({
          clientId: acked.clientId,
          optionId: acked.optionId,
          note: acked.note,
        });
      }
    }
    // A report's own session works on the restored instance too.
    const reportApi = await apiAs(second, reports[0]!, { secret });
    expect((await reportApi('/api/calltree/events/pending')).status).toBe(200);
    // And it writes: a new post commits with its event (on PostgreSQL the event log's numbering at
    // commit is a trigger function, restored into the new schema with the tables).
    const next = await dataOf<Post>(
      await restored(`/api/topics/${topic.id}/posts`, {
        method: 'POST',
        body: JSON.stringify({ clientId: `after-restore-${randomUUID()}`, body: 'After the restore' }),
      }),
      'a post after the restore',
    );
    expect(next.number).toBeGreaterThan(Math.max(...before.posts.map((p) => p.number)));
    await second.terminate();
  }, 240_000);

  it('refuses to restore into a target that already holds a database, and changes nothing there', async () => {
    if (!backupFolder || !restoredEnv) throw new Error('needs the backup and restore of the first test');
    const before = await targetTables(kind, restoredEnv);
    expect(before.length).toBeGreaterThan(0);
    await expect(restoreBackup(configOf(restoredEnv), { folder: backupFolder })).rejects.toThrow(
      /already holds (a database|BTalk's tables).*never overwrites/,
    );
    expect(await targetTables(kind, restoredEnv)).toEqual(before);
    // The command says so and exits 1.
    const lines: string[] = [];
    const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) };
    expect(await runRestoreCli([backupFolder], { BTALK_ENV: 'test', ...restoredEnv }, io)).toBe(1);
    expect(lines.join('\n')).toMatch(/Restore failed: .*never overwrites/);
  }, 60_000);

  it('a damaged file in the backup fails its checksum before anything is restored', async () => {
    if (!backupFolder || !firstFile) throw new Error('needs the backup of the first test');
    const manifest: Manifest = readManifest(backupFolder);
    for (const damage of ['attachment', 'database'] as const) {
      const copy = path.join(work, `damaged-${damage}`);
      cpSync(backupFolder, copy, { recursive: true });
      const victim =
        damage === 'attachment'
          ? backupFilePath(copy, manifest.files[0]!.key)
          : path.join(copy, manifest.database.file);
      const bytes = readFileSync(victim);
      bytes[Math.floor(bytes.length / 2)]! ^= 0xff;
      writeFileSync(victim, bytes);
      const target = freshTarget(kind, cleanups);
      const failure = await restoreBackup(configOf(target), { folder: copy }).catch(
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(BackupError);
      expect((failure as Error).message).toContain(
        `${path.relative(copy, victim)} does not match its checksum`,
      );
      expect(await targetTables(kind, target)).toEqual([]);
      expect(storedFiles(target.DATA_DIR!)).toEqual([]);
      expect(DATA_DIR_SECRETS.filter((name) => existsSync(path.join(target.DATA_DIR!, name)))).toEqual([]);
    }
  }, 120_000);

  it('fails, naming it, when an attachment of the database has no file, unless told to go on', async () => {
    if (!firstFile) throw new Error('needs the writes of the first test');
    const source = configOf(serverEnv);
    const manifest = readManifest(backupFolder!);
    const key = manifest.files[0]!.key;
    // The local storage keeps a key's file at DATA_DIR/files/<last two>/<key> (files/storage.ts).
    rmSync(path.join(serverEnv.DATA_DIR!, 'files', key.slice(-2), key));
    const folder = path.join(work, 'missing-file');
    await expect(createBackup(source, { folder })).rejects.toThrow(
      new RegExp(
        `1 attachment file\\(s\\) .* missing or damaged .*\\n  ${key}: not in the attachments storage`,
      ),
    );
    // Nothing half-written stays behind.
    expect(existsSync(folder)).toBe(false);
    const kept = await createBackup(source, { folder, allowMissingFiles: true });
    expect(kept.missingFiles).toEqual([{ key, reason: 'missing' }]);
    expect(kept.files.map((f) => f.key)).not.toContain(key);
    // The storage whole again, from the backup, for the next test.
    cpSync(backupFilePath(backupFolder!, key), path.join(serverEnv.DATA_DIR!, 'files', key.slice(-2), key));
  }, 60_000);

  it('leaves out an upload that the clean-up removed (row, then file) while the backup copied files', async () => {
    if (!backupFolder) throw new Error('needs the writes of the first test');
    const source = configOf(serverEnv);
    const key = readManifest(backupFolder).files.at(-1)!.key;
    // The clean-up runs between the snapshot and the copy of this file: its row goes, then the file.
    class RacingStorage extends LocalFileStorage {
      override async read(k: string) {
        if (k === key) {
          const db = openDatabase({
            databaseUrl: serverEnv.DATABASE_URL || undefined,
            dataDir: serverEnv.DATA_DIR!,
          });
          try {
            await db.kysely.deleteFrom('attachments').where('storage_key', '=', key).execute();
          } finally {
            await db.close();
          }
          await this.delete(key);
        }
        return super.read(k);
      }
    }
    const racing = new RacingStorage(path.join(serverEnv.DATA_DIR!, 'files'));
    const lines: string[] = [];
    const folder = path.join(work, 'cleaned-up');
    const manifest = await createBackup(source, { folder, storage: racing, log: (l) => lines.push(l) });
    expect(manifest.missingFiles).toEqual([{ key, reason: 'removed' }]);
    expect(manifest.files.map((f) => f.key)).not.toContain(key);
    expect(lines.join('\n')).toContain('1 upload(s) in the snapshot were removed while the backup ran');
  }, 60_000);

  if (kind === 'postgres') {
    it('restores into a new database (a new machine): the extension, schema public, a server on it', async () => {
      if (!backupFolder || !firstFile) throw new Error('needs the backup of the first test');
      const database = `btalk_test_restore_${randomBytes(5).toString('hex')}`;
      const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`create database ${database}`);
      await admin.end();
      cleanups.push(async () => {
        const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
        await c.connect();
        await c.query(`drop database if exists ${database} with (force)`);
        await c.end();
      });
      const url = new URL(TEST_DATABASE_URL);
      url.pathname = `/${database}`;
      const dataDir = mkdtempSync(path.join(tmpdir(), 'btalk-restored-'));
      cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
      const env = { DATA_DIR: dataDir, DATABASE_URL: url.toString() };
      const lines: string[] = [];
      await restoreBackup(configOf(env), { folder: backupFolder, log: (l) => lines.push(l) });
      expect(lines.join('\n')).toContain('into schema public');
      const server = await startServerProcess({ ...env, JWT_SECRET: '' });
      servers.push(server);
      const secret = readFileSync(path.join(dataDir, 'token-secret'), 'utf8').trim();
      const api = await apiAs(server, data, { secret });
      const res = await api(`/api/attachments/${firstFile.attachmentId}`);
      expect(res.status).toBe(200);
      await res.body?.cancel();
      await server.terminate();
    }, 120_000);
  }
});

describe('backup and restore with attachments in an S3-compatible store [sqlite]', () => {
  const s3 = useLocalS3();
  let data: PreparedData;
  const servers: ServerProcess[] = [];
  const cleanups: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    data = await prepareData('sqlite');
  }, HOOK_TIMEOUT_MS);

  afterAll(async () => {
    for (const server of servers) await server.kill9();
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
    await data?.cleanup();
  }, HOOK_TIMEOUT_MS);

  it('copies the files out of the bucket and into another prefix, where a restored server serves them', async () => {
    const sourceEnv = { ...data.env, ...s3.env, S3_PREFIX: 'source' };
    const first = await startServerProcess(sourceEnv);
    servers.push(first);
    const api = await apiAs(first, data);
    const topic = await dataOf<{ id: string }>(
      await api('/api/topics', {
        method: 'POST',
        body: JSON.stringify({ title: 'Files in S3', visibility: 'organisation' }),
      }),
      'creating the topic',
    );
    const files = [1, 2, 3].map((i) => ({
      name: `s3-${i}.bin`,
      content: Buffer.concat([Buffer.from(`BTalk S3 backup ${i}\n`), randomBytes(2000 * i)]),
    }));
    const body = multipart(files);
    const uploaded = await dataOf<{ attachments: { id: string }[] }>(
      await api(`/api/topics/${topic.id}/attachments`, {
        method: 'POST',
        body: body.payload,
        headers: body.headers,
      }),
      'the upload',
    );
    await dataOf(
      await api(`/api/topics/${topic.id}/posts`, {
        method: 'POST',
        body: JSON.stringify({
          clientId: randomUUID(),
          body: 'Three files',
          attachmentIds: uploaded.attachments.map((a) => a.id),
        }),
      }),
      'the post',
    );
    const folder = mkdtempSync(path.join(tmpdir(), 'btalk-backups-'));
    cleanups.push(async () => rmSync(folder, { recursive: true, force: true }));
    const backup = await runScript('backup', [path.join(folder, 'with-s3')], sourceEnv);
    expect(backup.code, backup.output).toBe(0);
    const manifest = readManifest(path.join(folder, 'with-s3'));
    expect(manifest.files).toHaveLength(3);
    await first.terminate();

    const dataDir = mkdtempSync(path.join(tmpdir(), 'btalk-restored-'));
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const targetEnv = { DATA_DIR: dataDir, DATABASE_URL: '', ...s3.env, S3_PREFIX: 'restored' };
    await restoreBackup(configOf(targetEnv), { folder: path.join(folder, 'with-s3') });
    const keys = await s3.keys();
    for (const file of manifest.files) expect(keys).toContain(`restored/${file.key}`);
    // Nothing went into DATA_DIR/files: the restored instance keeps its files in the bucket.
    expect(storedFiles(dataDir)).toEqual([]);

    const second = await startServerProcess(targetEnv);
    servers.push(second);
    const restored = await apiAs(second, data);
    for (const [i, attachment] of uploaded.attachments.entries()) {
      const res = await restored(`/api/attachments/${attachment.id}`);
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(files[i]!.content)).toBe(true);
    }
    await second.terminate();
  }, 120_000);
});

describe('npm run backup / restore: usage', () => {
  const capture = () => {
    const lines: string[] = [];
    return { lines, io: { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) } };
  };

  it('--help explains and exits 0; a wrong option or a missing folder exits 2 with the usage', async () => {
    const help = capture();
    expect(await runBackupCli(['--help'], {}, help.io)).toBe(0);
    expect(help.lines.join('\n')).toContain('Usage: npm run backup -- [folder]');
    const wrong = capture();
    expect(await runBackupCli(['--everything'], {}, wrong.io)).toBe(2);
    expect(wrong.lines.join('\n')).toMatch(/Unknown option '--everything'[\s\S]*Usage: npm run backup/);
    const none = capture();
    expect(await runRestoreCli([], {}, none.io)).toBe(2);
    expect(none.lines.join('\n')).toContain('Give the backup folder to restore.');
  });

  it('a bad configuration exits 78 naming the variable; an in-memory DATA_DIR has nothing to back up', async () => {
    const bad = capture();
    expect(await runBackupCli([path.join(tmpdir(), 'never')], { DATABASE_URL: 'mysql://x' }, bad.io)).toBe(
      78,
    );
    expect(bad.lines.join('\n')).toContain('DATABASE_URL: must be a postgres:// connection string');
    const memory = capture();
    expect(
      await runBackupCli(
        [path.join(tmpdir(), `never-${randomUUID()}`)],
        { DATA_DIR: ':memory:', BTALK_ENV: 'test' },
        memory.io,
      ),
    ).toBe(1);
    expect(memory.lines.join('\n')).toContain('Backup failed: DATA_DIR is :memory:');
  });
});
