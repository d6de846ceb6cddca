import type { Attachment } from '@btalk/contracts';
import type { AttachmentRow } from '../db/schema.ts';
import { cleanFileName, contentDisposition } from '../files/fileNames.ts';

/**
 * An attachment as the API shows it, with the path of its content. The name is cleaned again, so a
 * row stored before names were cleaned of format characters is shown safely too.
 */
export function presentAttachment(row: AttachmentRow): Attachment {
  return {
    id: row.id,
    fileName: cleanFileName(row.file_name),
    contentType: row.content_type,
    sizeBytes: Number(row.size_bytes),
    kind: row.kind,
    url: `/api/attachments/${row.id}`,
  };
}

/** Types the browser shows itself: pictures, and PDFs in its own viewer (PDF.js or the built-in one). */
function shownInline(row: AttachmentRow): boolean {
  return row.kind === 'image' || row.content_type === 'application/pdf';
}

/** The headers an attachment's content is sent with (`attachmentContentHeaders`). */
export interface AttachmentContentHeaders extends Record<string, string> {
  'content-type': string;
  'content-length': string;
  'content-disposition': string;
  'cache-control': string;
}

/**
 * The headers of an attachment's content: images and PDFs (by their content, never their name)
 * inline, anything else a download; never sniffed, and no script of the file runs on our origin.
 */
export function attachmentContentHeaders(row: AttachmentRow): AttachmentContentHeaders {
  const inline = shownInline(row);
  return {
    'content-type': inline ? row.content_type : 'application/octet-stream',
    'content-length': String(row.size_bytes),
    'content-disposition': contentDisposition(inline ? 'inline' : 'attachment', row.file_name),
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
    'cache-control': 'private, max-age=3600',
  };
}
