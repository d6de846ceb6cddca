import type { Attachment } from '@btalk/contracts';
import type { AttachmentRow } from '../db/schema.ts';

/** An attachment as the API shows it, with the path of its content. */
export function presentAttachment(row: AttachmentRow): Attachment {
  return {
    id: row.id,
    fileName: row.file_name,
    contentType: row.content_type,
    sizeBytes: Number(row.size_bytes),
    kind: row.kind,
    url: `/api/attachments/${row.id}`,
  };
}
