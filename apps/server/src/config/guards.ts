import { isIP } from 'node:net';

/**
 * Variables whose values never appear in a configuration error: secrets, and connection strings
 * that may carry a password.
 */
export const SECRET_VARIABLES = new Set([
  'JWT_SECRET',
  'API_KEY',
  'DIRECTORY_CLIENT_SECRET',
  'VAPID_PRIVATE_KEY',
  'SMTP_URL',
  'DATABASE_URL',
  'REDIS_URL',
  'TEAMS_BOT_APP_PASSWORD',
  'METRICS_TOKEN',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
]);

/** Whether HOST only listens on this machine: `localhost`, 127.0.0.0/8 or ::1 (also IPv4-mapped). */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  if (h === 'localhost' || h === '::1') return true;
  const v4 = h.replace(/^::ffff:/, '');
  return isIP(v4) === 4 && v4.startsWith('127.');
}

/** The length of the shortest unit that `text` repeats (`abcabcab` -> 3); its own length if none. */
function period(text: string): number {
  for (let p = 1; p < text.length; p++) {
    let repeats = true;
    for (let i = p; i < text.length && repeats; i++) repeats = text[i] === text[i - p];
    if (repeats) return p;
  }
  return text.length;
}

/** Parts of secrets that people type rather than generate. */
const TYPED_WORDS = [
  'changeme',
  'change-me',
  'password',
  'passw0rd',
  'secret',
  'example',
  'default',
  'qwertyuiop',
  'asdfghjkl',
  'zxcvbnm',
  'letmein',
  'admin',
  'btalk',
  'jwt',
];

/**
 * A rough estimate of a secret's strength in bits, low for what people type rather than generate:
 * only one period of a repeated pattern counts, a character next in a run (`abc`, `aaa`, `321`) adds
 * nothing, and each other character adds log2 of the number of distinct characters used. A random
 * base64 string of 43+ characters scores well above 128; `'a'.repeat(40)`, `changeme` repeated or
 * the alphabet score far below.
 */
export function estimatedSecretBits(secret: string): number {
  // Words and keyboard rows people type add nothing.
  let typed = secret;
  for (const word of TYPED_WORDS) typed = typed.replace(new RegExp(word, 'gi'), '');
  const chars = [...typed.slice(0, period(typed))];
  const distinct = new Set(chars).size;
  if (distinct < 2) return 0;
  let counted = 0;
  for (let i = 0; i < chars.length; i++) {
    const step =
      i === 0 ? Number.POSITIVE_INFINITY : chars[i]!.codePointAt(0)! - chars[i - 1]!.codePointAt(0)!;
    if (Math.abs(step) > 1) counted++;
  }
  return counted * Math.log2(distinct);
}

/**
 * The fewest estimated bits a production JWT_SECRET must have. The estimate is rough: set high, it
 * refused some truly random secrets (a 32-character random base64 string scored under 128 bits about
 * once in 35 tries, 32 hex characters almost always), so it catches what people type (repeats, runs,
 * `changeme`), while the 32-character minimum and the README's `openssl rand -base64 48` do the rest.
 */
export const MIN_SECRET_BITS = 48;
