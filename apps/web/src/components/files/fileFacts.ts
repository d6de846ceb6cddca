import type { Attachment } from '@btalk/contracts';

/** What kind of file an attachment is, for its icon and words: never for what the browser does with it. */
export type FileKind = 'pdf' | 'document' | 'spreadsheet' | 'presentation' | 'archive' | 'other';

const BY_EXTENSION: Record<string, FileKind> = {
  pdf: 'pdf',
  doc: 'document',
  docx: 'document',
  odt: 'document',
  rtf: 'document',
  txt: 'document',
  md: 'document',
  xls: 'spreadsheet',
  xlsx: 'spreadsheet',
  ods: 'spreadsheet',
  csv: 'spreadsheet',
  ppt: 'presentation',
  pptx: 'presentation',
  odp: 'presentation',
  zip: 'archive',
  '7z': 'archive',
  rar: 'archive',
  tar: 'archive',
  gz: 'archive',
  tgz: 'archive',
  bz2: 'archive',
  xz: 'archive',
};

/**
 * The kind of a file: a PDF only when the server found one in its content (only such a file opens
 * in the browser's viewer); the others by the type found in the content, then by the name.
 */
export function fileKind(attachment: Pick<Attachment, 'contentType' | 'fileName'>): FileKind {
  const type = attachment.contentType;
  if (type === 'application/pdf') return 'pdf';
  if (/wordprocessingml|opendocument\.text|msword|rtf/.test(type)) return 'document';
  if (/spreadsheetml|opendocument\.spreadsheet|ms-excel/.test(type)) return 'spreadsheet';
  if (/presentationml|opendocument\.presentation|ms-powerpoint/.test(type)) return 'presentation';
  if (/zip|x-7z|x-rar|x-tar|gzip|x-bzip2|x-xz/.test(type)) return 'archive';
  const extension = /\.([^.]+)$/.exec(attachment.fileName)?.[1]?.toLowerCase() ?? '';
  const named = BY_EXTENSION[extension];
  // A name that says PDF without a PDF inside is only "a file".
  return named && named !== 'pdf' ? named : 'other';
}

/** The units of sizes, per language (Thai writes the byte out, and KB, MB and GB as in English). */
const SIZE_UNITS: Record<string, readonly [string, string, string, string]> = {
  en: ['bytes', 'KB', 'MB', 'GB'],
  th: ['ไบต์', 'KB', 'MB', 'GB'],
};

/**
 * A size in the reader's language and units a person reads: bytes, KB, MB or GB (1 KB = 1024
 * bytes, as file managers count), e.g. "2.4 MB".
 */
export function formatFileSize(bytes: number, language: string): string {
  const units = SIZE_UNITS[language.slice(0, 2)] ?? SIZE_UNITS.en!;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const number = new Intl.NumberFormat(language, {
    maximumFractionDigits: unit === 0 || value >= 100 ? 0 : 1,
  }).format(value);
  return `${number} ${units[unit]}`;
}
