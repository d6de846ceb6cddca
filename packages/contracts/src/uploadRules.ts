// Why an upload was refused, as the `reason` of its `body.file` error detail, and the default list of
// refused file types. Imports nothing (no zod): the web app reads these from
// `@btalk/contracts/constants` to word each refusal in the reader's language.

/** The `reason` of a refused upload's `body.file` detail: one stable value per kind of refusal. */
export const UPLOAD_REFUSAL = {
  /** The file is larger than MAX_UPLOAD_BYTES (HTTP 413). */
  tooLarge: 'is larger than the largest file allowed (MAX_UPLOAD_BYTES)',
  /** More files than MAX_UPLOAD_FILES in one upload (HTTP 413). */
  tooMany: 'has more files than one upload may carry (MAX_UPLOAD_FILES)',
  /** An administrator refuses files of this type, by name or by content (HTTP 400). */
  refusedType: 'is a type of file an administrator does not allow',
  /** The file has no content (HTTP 400). */
  empty: 'is empty',
  /** The person would hold more files not yet in a post than UPLOAD_MAX_UNPOSTED_FILES (HTTP 409). */
  unpostedFiles:
    'would pass the most files one person may hold not yet in a post (UPLOAD_MAX_UNPOSTED_FILES)',
  /** The person would hold more bytes not yet in a post than UPLOAD_MAX_UNPOSTED_BYTES (HTTP 409). */
  unpostedBytes:
    'would pass the most bytes one person may hold not yet in a post (UPLOAD_MAX_UNPOSTED_BYTES)',
} as const;
/** One of the `UPLOAD_REFUSAL` reasons. */
export type UploadRefusal = (typeof UPLOAD_REFUSAL)[keyof typeof UPLOAD_REFUSAL];

/**
 * File types refused unless an administrator says otherwise (UPLOAD_REFUSED_EXTENSIONS, then the
 * administrators' list): programs, installers and scripts, which run when opened.
 */
export const DEFAULT_REFUSED_EXTENSIONS = [
  'exe',
  'msi',
  'msp',
  'bat',
  'cmd',
  'com',
  'scr',
  'pif',
  'cpl',
  'ps1',
  'psm1',
  'vbs',
  'vbe',
  'js',
  'jse',
  'wsf',
  'wsh',
  'hta',
  'jar',
  'sh',
  'app',
  'dll',
  'apk',
  'dmg',
  'deb',
  'rpm',
  'elf',
  'lnk',
  'reg',
] as const;

/** Most extensions on the refused list. */
export const MAX_REFUSED_EXTENSIONS = 200;
/** An extension as the list holds it: lower case letters and digits, without the dot. */
export const REFUSED_EXTENSION_PATTERN = /^[a-z0-9]{1,16}$/;
