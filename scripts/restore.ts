/**
 * `npm run restore -- <folder>`: restores a backup of `npm run backup` into the empty target that
 * the environment configures (DATA_DIR, DATABASE_URL, S3_*), checksums first, migrations after.
 * `--help` for the details; docs/backup.md for the whole story.
 */
import { runRestoreCli } from '../apps/server/src/backup/cli.ts';

process.exit(await runRestoreCli(process.argv.slice(2)));
