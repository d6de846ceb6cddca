import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { makePrivateFile } from '../files/dataDir.ts';
import { BackupError } from './manifest.ts';
import type { SnapshotInfo } from './snapshot.ts';

/** The extensions BTalk's migrations install (db/migrations: pg_trgm for search). */
const BTALK_EXTENSIONS = ['pg_trgm'];

/** The PostgreSQL programs a backup and a restore run. */
type Tool = 'pg_dump' | 'pg_restore' | 'psql';

/** An extension and the schema it lives in. */
export interface ExtensionPlace {
  name: string;
  schema: string;
}

/** A schema name BTalk works with: plain, so it can be quoted and matched without surprises. */
const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_$]{0,62}$/;

function checkSchemaName(schema: string, what: string): string {
  if (!SCHEMA_NAME.test(schema)) {
    throw new BackupError(
      `${what} ${JSON.stringify(schema)} is not a plain schema name (letters, digits, _ and $): ` +
        'backups support plain names only.',
    );
  }
  return schema;
}

/** An SQL identifier in double quotes. */
function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * Where a PostgreSQL program is: the first executable `name` on PATH. A clear error when there is
 * none, before anything was written.
 */
export function findTool(name: Tool): string {
  const folders = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  for (const folder of folders) {
    const candidate = path.join(folder, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this folder
    }
  }
  throw new BackupError(
    `${name} was not found on PATH (${folders.join(path.delimiter)}): install PostgreSQL's client ` +
      "programs, of the server's major version or newer (Debian and Ubuntu: apt install postgresql-client).",
  );
}

/**
 * The environment that points libpq's programs at a DATABASE_URL, read as node-postgres reads it
 * (`options=-c search_path=...` included). Through the environment, not the command line, so the
 * password does not show in the process list, and `+` in the query means a space as it does for the server.
 */
export function libpqEnv(databaseUrl: string): NodeJS.ProcessEnv {
  const url = new URL(databaseUrl);
  const env: NodeJS.ProcessEnv = { ...process.env };
  const set = (name: string, value: string | null | undefined) => {
    if (value) env[name] = value;
  };
  set('PGHOST', url.searchParams.get('host') ?? url.hostname.replace(/^\[(.*)\]$/, '$1'));
  set('PGPORT', url.searchParams.get('port') ?? url.port);
  set('PGUSER', decodeURIComponent(url.username));
  set('PGPASSWORD', decodeURIComponent(url.password));
  set('PGDATABASE', decodeURIComponent(url.pathname.replace(/^\//, '')));
  set('PGOPTIONS', url.searchParams.get('options'));
  set('PGAPPNAME', url.searchParams.get('application_name') ?? 'btalk-backup');
  const ssl = url.searchParams.get('ssl');
  set('PGSSLMODE', url.searchParams.get('sslmode') ?? (ssl === 'true' || ssl === '1' ? 'require' : null));
  set('PGSSLROOTCERT', url.searchParams.get('sslrootcert'));
  set('PGSSLCERT', url.searchParams.get('sslcert'));
  set('PGSSLKEY', url.searchParams.get('sslkey'));
  return env;
}

/**
 * Runs a PostgreSQL program and answers what it wrote to stdout; rejects with its exit code and the
 * end of what it wrote to stderr.
 */
function run(tool: Tool, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(findTool(tool), args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    child.once('error', (error) => reject(new BackupError(`${tool} could not run: ${error.message}`)));
    child.once('close', (code, signal) => {
      if (code === 0) resolve(stdout);
      else reject(new BackupError(`${tool} failed (${signal ?? `exit code ${code}`}): ${stderr.trim()}`));
    });
  });
}

/**
 * The schema a connection works in: current_schema(), or, when the first schema of its search_path
 * does not exist yet, that name.
 */
async function schemaOf(client: pg.Client): Promise<{ schema: string; exists: boolean }> {
  const current = await client.query<{ schema: string | null }>('select current_schema() as schema');
  const found = current.rows[0]?.schema;
  if (found) return { schema: found, exists: true };
  const shown = await client.query<{ search_path: string }>('show search_path');
  const first = (shown.rows[0]?.search_path ?? '')
    .split(',')
    .map((s) => s.trim().replace(/^"(.*)"$/, '$1'))
    .find((s) => s && s !== '$user');
  if (!first)
    throw new BackupError('The connection of DATABASE_URL names no schema (its search_path is empty).');
  return { schema: first, exists: false };
}

/** Tables of a schema. */
async function tablesOf(client: pg.Client, schema: string): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `select c.relname as name from pg_catalog.pg_class c
       join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where n.nspname = $1 and c.relkind in ('r', 'p') order by c.relname`,
    [schema],
  );
  return rows.map((r) => r.name);
}

/** Rows per table of a schema. */
export async function postgresCounts(client: pg.Client, schema: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of await tablesOf(client, schema)) {
    const { rows } = await client.query<{ n: string }>(
      `select count(*) as n from ${ident(schema)}.${ident(table)}`,
    );
    counts[table] = Number(rows[0]?.n ?? 0);
  }
  return counts;
}

/** What a PostgreSQL dump knows besides the common snapshot facts. */
export interface PostgresSnapshot extends SnapshotInfo {
  schema: string;
  extensions: ExtensionPlace[];
  /** When the snapshot was taken. */
  takenAt: string;
}

/**
 * Dumps BTalk's schema (the one DATABASE_URL's search_path names, else public) with pg_dump in its
 * custom format into `archive`. One REPEATABLE READ transaction exports its snapshot; the facts of
 * the manifest (attachments, counts, newest migration) are read in it, and pg_dump dumps that same
 * snapshot, so the two agree whatever the server writes meanwhile.
 */
export async function dumpPostgres(databaseUrl: string, archive: string): Promise<PostgresSnapshot> {
  findTool('pg_dump');
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'btalk-backup' });
  await client.connect().catch((error: Error) => {
    throw new BackupError(`Could not connect to DATABASE_URL's PostgreSQL: ${error.message}`);
  });
  try {
    await client.query('begin isolation level repeatable read read only');
    const { schema, exists } = await schemaOf(client);
    checkSchemaName(schema, 'The schema');
    const tables = exists ? await tablesOf(client, schema) : [];
    if (!tables.includes('kysely_migration') || !tables.includes('attachments')) {
      throw new BackupError(
        `Schema ${schema} holds no BTalk tables: check DATABASE_URL (its database, and options=-c search_path=<schema> ` +
          'when BTalk runs in a schema of its own).',
      );
    }
    const exported = await client.query<{ snapshot: string }>('select pg_export_snapshot() as snapshot');
    const takenAt = new Date().toISOString();
    const attachments = await client.query<{ key: string; bytes: string }>(
      `select storage_key as key, size_bytes as bytes from ${ident(schema)}.attachments order by storage_key`,
    );
    const newest = await client.query<{ name: string }>(
      `select name from ${ident(schema)}.kysely_migration order by name desc limit 1`,
    );
    const extensions = await client.query<ExtensionPlace>(
      `select e.extname as name, n.nspname as schema from pg_catalog.pg_extension e
         join pg_catalog.pg_namespace n on n.oid = e.extnamespace where e.extname = any($1) order by e.extname`,
      [BTALK_EXTENSIONS],
    );
    const counts = await postgresCounts(client, schema);
    // pg_dump keeps the mode of the file it writes into: the database is for the server's user only.
    makePrivateFile(archive);
    await run(
      'pg_dump',
      [
        '--format=custom',
        `--snapshot=${exported.rows[0]!.snapshot}`,
        `--schema=${ident(schema)}`,
        '--lock-wait-timeout=60000',
        `--file=${archive}`,
      ],
      libpqEnv(databaseUrl),
    );
    await client.query('commit');
    return {
      schema,
      takenAt,
      extensions: extensions.rows,
      attachments: attachments.rows.map((a) => ({ key: a.key, bytes: Number(a.bytes) })),
      counts,
      newestMigration: newest.rows[0]?.name ?? null,
    };
  } finally {
    await client.end().catch(() => {});
  }
}

/** The storage keys among `keys` that attachment rows of the live database still name. */
export async function referencedKeysPostgres(databaseUrl: string, keys: string[]): Promise<Set<string>> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'btalk-backup' });
  await client.connect();
  try {
    const { rows } = await client.query<{ key: string }>(
      'select storage_key as key from attachments where storage_key = any($1)',
      [keys],
    );
    return new Set(rows.map((r) => r.key));
  } finally {
    await client.end().catch(() => {});
  }
}

/** What a restore into a PostgreSQL database needs to know of the backup. */
export interface PostgresRestore {
  /** The target: the DATABASE_URL of the configuration. */
  databaseUrl: string;
  /** The custom-format archive. */
  archive: string;
  /** The schema it was dumped from. */
  schema: string;
  /** Its tables (the manifest's counts): none of them may exist in the target schema. */
  tables: string[];
  extensions: ExtensionPlace[];
  log: (line: string) => void;
}

/** Whether a schema exists, and whether anything (a table, a sequence...) is in it. */
async function schemaState(client: pg.Client, schema: string): Promise<'absent' | 'empty' | 'used'> {
  const { rows } = await client.query<{ exists: boolean; used: boolean }>(
    `select exists (select 1 from pg_catalog.pg_namespace where nspname = $1) as exists,
            exists (select 1 from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
                     where n.nspname = $1) as used`,
    [schema],
  );
  const row = rows[0]!;
  return row.used ? 'used' : row.exists ? 'empty' : 'absent';
}

/** Runs `fn` with a connection to `databaseUrl`. */
async function withClient<T>(databaseUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'btalk-restore' });
  await client.connect().catch((error: Error) => {
    throw new BackupError(`Could not connect to DATABASE_URL's PostgreSQL: ${error.message}`);
  });
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * The target schema of a restore (DATABASE_URL's), after checking that none of the backup's tables
 * is in it: a restore never overwrites data.
 */
export async function postgresTarget(databaseUrl: string, tables: string[]): Promise<string> {
  return withClient(databaseUrl, async (client) => {
    const { schema } = await schemaOf(client);
    checkSchemaName(schema, "DATABASE_URL's schema");
    const present = (await tablesOf(client, schema)).filter((t) => tables.includes(t));
    if (present.length > 0) {
      throw new BackupError(
        `Schema ${schema} already holds BTalk's tables (${present.slice(0, 5).join(', ')}${present.length > 5 ? ', ...' : ''}): ` +
          'a restore never overwrites data. Restore into a new database or an empty schema ' +
          `(DATABASE_URL with options=-c search_path=<schema>), or, if that data should go, drop schema ${schema} first.`,
      );
    }
    return schema;
  });
}

/**
 * Statements that move every relation of schema `from` into `to` (tables with their indexes,
 * constraints and owned sequences; then any other sequence or view), and its functions (the event
 * log's commit-time numbering). Column defaults name their sequences, and triggers their functions,
 * by oid, so they follow.
 */
function moveSchemaSql(from: string, to: string): string {
  return `
DO $btalk$
DECLARE r record;
BEGIN
  FOR r IN SELECT c.relname FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = '${from}' AND c.relkind IN ('r', 'p') LOOP
    EXECUTE pg_catalog.format('ALTER TABLE %I.%I SET SCHEMA %I', '${from}', r.relname, '${to}');
  END LOOP;
  FOR r IN SELECT c.relname, c.relkind FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = '${from}' AND c.relkind IN ('S', 'v', 'm') LOOP
    EXECUTE pg_catalog.format(
      CASE r.relkind WHEN 'S' THEN 'ALTER SEQUENCE %I.%I SET SCHEMA %I'
                     WHEN 'v' THEN 'ALTER VIEW %I.%I SET SCHEMA %I'
                     ELSE 'ALTER MATERIALIZED VIEW %I.%I SET SCHEMA %I' END,
      '${from}', r.relname, '${to}');
  END LOOP;
  FOR r IN SELECT p.proname, pg_catalog.pg_get_function_identity_arguments(p.oid) AS args
            FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
            WHERE n.nspname = '${from}' LOOP
    EXECUTE pg_catalog.format('ALTER FUNCTION %I.%I(%s) SET SCHEMA %I', '${from}', r.proname, r.args, '${to}');
  END LOOP;
END
$btalk$;
`;
}

/**
 * Restores `archive` (dumped from schema `from`) into schema `to` of the database at `databaseUrl`,
 * in one transaction: pg_restore writes the restore as SQL (--no-owner, --no-privileges: the target's
 * role owns everything), and psql runs it with --single-transaction, after creating the extensions
 * and, when the names differ, followed by moving everything from `from` into `to`. Either all of it
 * is there or none. `from` must not hold anything in the target database unless it is `to`.
 */
async function restoreInto(
  databaseUrl: string,
  archive: string,
  from: string,
  to: string,
  extensions: ExtensionPlace[],
): Promise<void> {
  const state = await withClient(databaseUrl, (client) => schemaState(client, from));
  const work = mkdtempSync(path.join(tmpdir(), 'btalk-restore-'));
  try {
    // The archive creates its schema; a schema that exists already (public, or an empty one made for
    // BTalk) must not be created again.
    let list = await run('pg_restore', ['--list', archive], process.env);
    if (state !== 'absent') {
      list = list
        .split('\n')
        .map((line) =>
          line.match(/^\d+; \d+ \d+ (SCHEMA - |COMMENT - SCHEMA )(\S+) /)?.[2] === from ? `;${line}` : line,
        )
        .join('\n');
    }
    const listFile = path.join(work, 'list');
    writeFileSync(listFile, list);
    const prefix = [
      'SET client_min_messages = warning;',
      ...extensions.map(
        (e) => `CREATE EXTENSION IF NOT EXISTS ${ident(e.name)} WITH SCHEMA ${ident(e.schema)};`,
      ),
      '',
    ].join('\n');
    const suffix =
      from === to
        ? ''
        : [
            `CREATE SCHEMA IF NOT EXISTS ${ident(to)};`,
            moveSchemaSql(from, to),
            state === 'absent' ? `DROP SCHEMA ${ident(from)};` : '',
            '',
          ].join('\n');
    await pipeRestore(databaseUrl, archive, listFile, prefix, suffix);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** pg_restore's SQL, between `prefix` and `suffix`, into psql in one transaction. */
function pipeRestore(
  databaseUrl: string,
  archive: string,
  listFile: string,
  prefix: string,
  suffix: string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const env = libpqEnv(databaseUrl);
    const psql = spawn(
      findTool('psql'),
      ['--no-psqlrc', '--quiet', '--single-transaction', '--set=ON_ERROR_STOP=1', '--file=-'],
      { env, stdio: ['pipe', 'ignore', 'pipe'] },
    );
    const restore = spawn(
      findTool('pg_restore'),
      ['--no-owner', '--no-privileges', `--use-list=${listFile}`, '--file=-', archive],
      { env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let psqlErrors = '';
    let restoreErrors = '';
    psql.stderr.on('data', (chunk: Buffer) => {
      psqlErrors = (psqlErrors + chunk.toString()).slice(-4000);
    });
    restore.stderr.on('data', (chunk: Buffer) => {
      restoreErrors = (restoreErrors + chunk.toString()).slice(-4000);
    });
    // psql stops at the first error and rolls back; what pg_restore still writes goes nowhere.
    psql.stdin.on('error', () => {});
    let restoreFailed: Error | null = null;
    psql.stdin.write(prefix);
    restore.stdout.pipe(psql.stdin, { end: false });
    restore.once('error', (error) => {
      restoreFailed = error;
      psql.kill('SIGTERM');
    });
    restore.once('close', (code, signal) => {
      if (code !== 0) {
        restoreFailed ??= new Error(`${signal ?? `exit code ${code}`}: ${restoreErrors.trim()}`);
        // Without the end of the script psql commits nothing.
        psql.kill('SIGTERM');
        return;
      }
      psql.stdin.end(suffix);
    });
    psql.once('error', (error) => reject(new BackupError(`psql could not run: ${error.message}`)));
    psql.once('close', (code, signal) => {
      // psql stopped at an error: pg_restore, with nobody reading, would wait forever.
      if (restore.exitCode === null && restore.signalCode === null) restore.kill('SIGTERM');
      if (restoreFailed) {
        reject(new BackupError(`pg_restore failed (${restoreFailed.message}); nothing was restored.`));
      } else if (code !== 0) {
        reject(
          new BackupError(
            `Restoring into PostgreSQL failed (psql ${signal ?? `exit code ${code}`}); nothing was restored: ` +
              psqlErrors.trim(),
          ),
        );
      } else {
        resolve();
      }
    });
  });
}

/**
 * Restores a dump into DATABASE_URL's schema. When the dump's own schema holds something in the
 * target database (another BTalk, such as the one backed up, in the same database), the names would
 * collide: the dump goes through a scratch database first (restored there, moved into the target's
 * schema name, dumped again), which needs the CREATEDB privilege. Answers the target schema.
 */
export async function restorePostgres(options: PostgresRestore): Promise<string> {
  for (const tool of ['pg_restore', 'psql', 'pg_dump'] as const) findTool(tool);
  const from = checkSchemaName(options.schema, "The backup's schema");
  const to = await postgresTarget(options.databaseUrl, options.tables);
  const collides =
    from !== to && (await withClient(options.databaseUrl, (client) => schemaState(client, from))) === 'used';
  if (!collides) {
    options.log(`restoring schema ${from} into schema ${to} (pg_restore, one transaction)`);
    await restoreInto(options.databaseUrl, options.archive, from, to, options.extensions);
    return to;
  }
  const scratch = `btalk_restore_${randomBytes(5).toString('hex')}`;
  options.log(
    `schema ${from} is in use in the target database: restoring through a scratch database (${scratch})`,
  );
  await withClient(options.databaseUrl, (client) => client.query(`create database ${ident(scratch)}`)).catch(
    (error: Error) => {
      throw new BackupError(
        `The backup's schema ${from} already exists in the target database (likely the BTalk that was backed ` +
          `up), so the restore goes through a scratch database, which this role may not create (${error.message}). ` +
          'Restore into another database, or grant the role CREATEDB.',
      );
    },
  );
  const scratchUrl = new URL(options.databaseUrl);
  scratchUrl.pathname = `/${scratch}`;
  const work = mkdtempSync(path.join(tmpdir(), 'btalk-restore-'));
  try {
    await restoreInto(scratchUrl.toString(), options.archive, from, to, options.extensions);
    const moved = path.join(work, 'moved.pgdump');
    await run(
      'pg_dump',
      ['--format=custom', `--schema=${ident(to)}`, `--file=${moved}`],
      libpqEnv(scratchUrl.toString()),
    );
    await restoreInto(options.databaseUrl, moved, to, to, options.extensions);
    return to;
  } finally {
    rmSync(work, { recursive: true, force: true });
    await withClient(options.databaseUrl, (client) =>
      client.query(`drop database if exists ${ident(scratch)} with (force)`),
    ).catch((error: Error) =>
      options.log(`could not drop the scratch database ${scratch}: ${error.message}`),
    );
  }
}

/** Rows per table of DATABASE_URL's schema, after a restore. */
export async function countRestoredPostgres(databaseUrl: string): Promise<Record<string, number>> {
  return withClient(databaseUrl, async (client) => postgresCounts(client, (await schemaOf(client)).schema));
}
