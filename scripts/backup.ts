/**
 * `npm run backup -- [folder]`: backs up the BTalk that the environment configures (DATA_DIR,
 * DATABASE_URL, S3_*) while it serves: database snapshot, attachment files, DATA_DIR's secrets and
 * a manifest of checksums. `--help` for the options; docs/backup.md for the whole story.
 */
import { runBackupCli } from '../apps/server/src/backup/cli.ts';

process.exit(await runBackupCli(process.argv.slice(2)));
