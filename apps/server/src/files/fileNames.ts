import path from 'node:path';

/** The name a file gets when nothing of the uploaded name is left. */
export const FALLBACK_FILE_NAME = 'file';

/**
 * Characters dropped from file names: control characters (Cc), format characters (Cf: bidirectional
 * overrides such as U+202E that make `invoice<U+202E>gpj.exe` read as `invoiceexe.jpg`, zero-width spaces
 * and joiners, U+FEFF), line and paragraph separators, and the double quote of Content-Disposition.
 */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}"]/gu;

/** Longest kept name, in characters (code points, so a surrogate pair is never cut in half). */
const MAX_NAME_LENGTH = 200;

/**
 * A file name safe to store, show and echo in Content-Disposition: no folders, no control or format
 * characters, at most 200 characters, and not empty (nor only dots).
 */
export function cleanFileName(name: string): string {
  const base = path.basename(name.replace(UNSAFE, '').replaceAll('\\', '/')).trim();
  const kept = Array.from(base).slice(0, MAX_NAME_LENGTH).join('').trim();
  return /^\.*$/.test(kept) ? FALLBACK_FILE_NAME : kept;
}

/**
 * The Content-Disposition of a download: an ASCII `filename` for old clients and the UTF-8
 * `filename*` (RFC 6266), both of the cleaned name.
 */
export function contentDisposition(kind: 'inline' | 'attachment', fileName: string): string {
  const clean = cleanFileName(fileName);
  const ascii = clean.replace(/[^\x20-\x7e]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(clean)}`;
}
