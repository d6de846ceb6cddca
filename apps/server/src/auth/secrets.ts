import { randomBytes } from 'node:crypto';
import type { Config } from '../config/index.ts';
import { keptSecret } from '../files/dataDir.ts';

/**
 * The secret that signs access tokens. Production sets JWT_SECRET. Elsewhere one is made on first
 * start and kept in DATA_DIR/token-secret (mode 600), so sessions survive a restart; with an
 * in-memory database there is nothing to survive, so it lives in memory too.
 */
export function tokenSecret(config: Pick<Config, 'jwtSecret' | 'dataDir'>): Uint8Array {
  if (config.jwtSecret) return new TextEncoder().encode(config.jwtSecret);
  if (config.dataDir === ':memory:') return randomBytes(48);
  const secret = keptSecret(config.dataDir, 'token-secret', () => randomBytes(48).toString('base64'));
  return new TextEncoder().encode(secret.trim());
}
