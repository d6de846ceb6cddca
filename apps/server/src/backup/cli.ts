import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config/index.ts';
import { BackupError, createBackup, restoreBackup } from './index.ts';

/** Exit codes of `npm run backup` and `npm run restore`. */
export const EXIT = { done: 0, failed: 1, usage: 2, config: 78 } as const;

/** Where the commands write: the terminal, or a test's buffer. */
export interface CliOutput {
  out(line: string): void;
  err(line: string): void;
}

const terminal: CliOutput = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

const BACKUP_USAGE = `Usage: npm run backup -- [folder] [--allow-missing-files]

Backs up this BTalk while it serves: a consistent snapshot of the database (SQLite's online
backup, or pg_dump of BTalk's PostgreSQL schema), the file of every attachment in that snapshot,
and the secrets DATA_DIR holds, with manifest.json listing the checksum of each file.
It reads the server's configuration from the environment (DATA_DIR, DATABASE_URL, S3_*):
run it with the same environment as the server.

  folder                 where to write (must not exist, or be empty); default
                         ./backups/btalk-<UTC time>. It is made readable by this user only:
                         it holds the database and secrets.
  --allow-missing-files  finish even when attachment files are missing from the storage or
                         damaged, listing them in the manifest (otherwise the backup fails)
  -h, --help             show this text

Exit codes: 0 done, 1 failed (the message says why), 2 wrong usage, 78 bad configuration.
See docs/backup.md.`;

const RESTORE_USAGE = `Usage: npm run restore -- <folder>

Restores a backup made by \`npm run backup\` into this configuration's empty target: DATA_DIR,
DATABASE_URL's database and schema (PostgreSQL, with pg_restore), the attachments storage.
Every checksum is verified first; a target that already holds a BTalk database is refused.
Migrations newer than the backup are applied. Run it with the environment the restored server
will have, while no server runs on the target.

  folder      the backup folder (holding manifest.json)
  -h, --help  show this text

Exit codes: 0 done, 1 failed (the message says why), 2 wrong usage, 78 bad configuration.
See docs/backup.md.`;

/** A path the operator typed, from the folder they ran npm in (npm runs scripts in the project's root). */
function resolveTyped(typed: string, env: NodeJS.ProcessEnv): string {
  return path.resolve(env.INIT_CWD ?? process.cwd(), typed);
}

/** `20261126T101530Z`: a UTC time for a folder name. */
function folderStamp(at: Date): string {
  return at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
}

/** Parses the arguments; answers null after writing the usage error. */
function parse(args: string[], usage: string, io: CliOutput, withMissingFiles: boolean) {
  try {
    return parseArgs({
      args,
      options: {
        help: { type: 'boolean', short: 'h' },
        ...(withMissingFiles ? { 'allow-missing-files': { type: 'boolean' } } : {}),
      },
      allowPositionals: true,
      strict: true,
    }) as { values: { help?: boolean; 'allow-missing-files'?: boolean }; positionals: string[] };
  } catch (error) {
    io.err(`${(error as Error).message}\n\n${usage}`);
    return null;
  }
}

/** Runs a command with the loaded configuration, turning its failures into messages and exit codes. */
async function withConfig(
  what: string,
  env: NodeJS.ProcessEnv,
  io: CliOutput,
  fn: (config: ReturnType<typeof loadConfig>) => Promise<void>,
): Promise<number> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.err(error.message);
    return EXIT.config;
  }
  try {
    await fn(config);
    return EXIT.done;
  } catch (error) {
    if (error instanceof BackupError) io.err(`${what} failed: ${error.message}`);
    else io.err(`${what} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return EXIT.failed;
  }
}

/** `npm run backup`: answers the exit code. */
export async function runBackupCli(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  io: CliOutput = terminal,
): Promise<number> {
  const parsed = parse(args, BACKUP_USAGE, io, true);
  if (!parsed) return EXIT.usage;
  if (parsed.values.help) {
    io.out(BACKUP_USAGE);
    return EXIT.done;
  }
  if (parsed.positionals.length > 1) {
    io.err(`Give one folder, not ${parsed.positionals.length}.\n\n${BACKUP_USAGE}`);
    return EXIT.usage;
  }
  const typed = parsed.positionals[0];
  const folder = typed
    ? resolveTyped(typed, env)
    : path.resolve('backups', `btalk-${folderStamp(new Date())}`);
  return withConfig('Backup', env, io, async (config) => {
    await createBackup(config, {
      folder,
      allowMissingFiles: parsed.values['allow-missing-files'] === true,
      log: io.out,
    });
    io.out('This backup holds the database and secrets: keep it where only its operators can read it.');
  });
}

/** `npm run restore`: answers the exit code. */
export async function runRestoreCli(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  io: CliOutput = terminal,
): Promise<number> {
  const parsed = parse(args, RESTORE_USAGE, io, false);
  if (!parsed) return EXIT.usage;
  if (parsed.values.help) {
    io.out(RESTORE_USAGE);
    return EXIT.done;
  }
  if (parsed.positionals.length !== 1) {
    io.err(`Give the backup folder to restore.\n\n${RESTORE_USAGE}`);
    return EXIT.usage;
  }
  const folder = resolveTyped(parsed.positionals[0]!, env);
  return withConfig('Restore', env, io, async (config) => {
    await restoreBackup(config, { folder, log: io.out });
  });
}
