import type { KeyStore } from '../stores/tokenCipher.ts';

/** A key holder in memory, for tests: jsdom has no IndexedDB. The keys themselves are real CryptoKeys. */
export function memoryKeyStore(): KeyStore {
  const keys = new Map<string, CryptoKey>();
  return {
    get: async (name) => keys.get(name),
    set: async (name, key) => {
      keys.set(name, key);
    },
  };
}
