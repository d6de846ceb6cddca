/**
 * `npm run teams:package`: writes the Teams app package (dist/teams/btalk-teams.zip, or the path given
 * as the first argument) from the same environment variables the server reads. Missing or unfit
 * configuration stops it with a message naming each variable, and a non-zero exit.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from '../apps/server/src/config/index.ts';
import { buildPackage } from '../apps/server/src/teams/appPackage.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.resolve(process.argv[2] ?? path.join(root, 'dist/teams/btalk-teams.zip'));

try {
  const zip = buildPackage(loadConfig(process.env));
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, zip);
  console.log(`Teams app package written to ${path.relative(process.cwd(), out) || out}`);
  console.log('Upload it in the Teams admin centre (Manage apps > Upload new app), or sideload it to test.');
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}
