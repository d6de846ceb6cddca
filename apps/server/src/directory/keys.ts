import { generateKeyPairSync } from 'node:crypto';
import type { JWK } from 'jose';
import { keptSecret } from '../files/dataDir.ts';

/**
 * The development directory's signing key (RS256) as a private JWK. Kept in DATA_DIR/directory-key.json
 * (mode 600) so that its tokens stay valid across restarts; in memory when DATA_DIR is `:memory:`.
 */
export function directorySigningKey(dataDir: string): JWK {
  const make = (): JWK => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwk = privateKey.export({ format: 'jwk' }) as JWK;
    return { ...jwk, alg: 'RS256', use: 'sig', kid: `dev-${Date.now().toString(36)}` };
  };
  if (dataDir === ':memory:') return make();
  return JSON.parse(keptSecret(dataDir, 'directory-key.json', () => JSON.stringify(make()))) as JWK;
}

/** The public half of a private JWK, for the JWKS endpoint and for checking tokens. */
export function publicJwk(jwk: JWK): JWK {
  const { kty, n, e, alg, use, kid } = jwk;
  return { kty, n, e, alg, use, kid } as JWK;
}
