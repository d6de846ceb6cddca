import { get, set } from 'idb-keyval';

/** Where the token key lives. The browser keeps it in IndexedDB; tests give their own holder. */
export interface KeyStore {
  get(name: string): Promise<CryptoKey | undefined>;
  set(name: string, key: CryptoKey): Promise<void>;
}

/** The key store of the browser: IndexedDB through idb-keyval (a CryptoKey survives structured clone). */
export const indexedDbKeyStore: KeyStore = { get: (name) => get<CryptoKey>(name), set };

/** Encrypts and decrypts the tokens kept in localStorage (SPEC.md section 3). */
export interface TokenCipher {
  encrypt(plain: string): Promise<string>;
  /** The plain token, or null when the value cannot be decrypted (e.g. the key was cleared). */
  decrypt(sealed: string): Promise<string | null>;
}

const KEY_NAME = 'btalk-token-key';
const IV_BYTES = 12;

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * AES-GCM with a 256-bit key that is created non-extractable, so script on the page can use it but
 * never read it out; localStorage only ever holds `base64(iv || ciphertext)`.
 */
export function createTokenCipher(keys: KeyStore = indexedDbKeyStore): TokenCipher {
  let pending: Promise<CryptoKey> | null = null;
  const key = () => {
    pending ??= (async () => {
      const stored = await keys.get(KEY_NAME);
      if (stored) return stored;
      const made = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, [
        'encrypt',
        'decrypt',
      ]);
      await keys.set(KEY_NAME, made);
      return made;
    })();
    pending.catch(() => {
      pending = null;
    });
    return pending;
  };
  return {
    async encrypt(plain) {
      const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
      const sealed = await crypto.subtle.encrypt(
        { name: 'AES-GCM', iv },
        await key(),
        new TextEncoder().encode(plain),
      );
      const out = new Uint8Array(IV_BYTES + sealed.byteLength);
      out.set(iv);
      out.set(new Uint8Array(sealed), IV_BYTES);
      return toBase64(out);
    },
    async decrypt(sealed) {
      try {
        const bytes = fromBase64(sealed);
        const plain = await crypto.subtle.decrypt(
          { name: 'AES-GCM', iv: bytes.subarray(0, IV_BYTES) },
          await key(),
          bytes.subarray(IV_BYTES),
        );
        return new TextDecoder().decode(plain);
      } catch {
        return null;
      }
    },
  };
}
