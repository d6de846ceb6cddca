import type { Attachment } from '@btalk/contracts';
import { useCallback, useState } from 'react';
import { useServices } from '../../../services.tsx';

/** A file on its way into the next post. */
export interface PendingUpload {
  key: string;
  file: File;
  status: 'uploading' | 'done' | 'failed';
  attachment?: Attachment;
  error?: string;
}

function failureText(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string')
    return error.message;
  return String(error);
}

/** Uploads files as soon as they are picked, dropped or pasted; the post then names their ids. */
export function useAttachmentUploads(topicId: string) {
  const { api } = useServices();
  const [uploads, setUploads] = useState<PendingUpload[]>([]);
  const add = useCallback(
    (files: readonly File[]) => {
      const update = (key: string, change: Partial<PendingUpload>) =>
        setUploads((all) => all.map((u) => (u.key === key ? { ...u, ...change } : u)));
      for (const file of files) {
        const key = crypto.randomUUID();
        setUploads((all) => [...all, { key, file, status: 'uploading' }]);
        api.attachments.upload(topicId, [file]).then(
          (res) => update(key, { status: 'done', attachment: res.attachments[0] }),
          (error: unknown) => update(key, { status: 'failed', error: failureText(error) }),
        );
      }
    },
    [api, topicId],
  );
  return {
    uploads,
    add,
    remove: (key: string) => setUploads((all) => all.filter((u) => u.key !== key)),
    clear: () => setUploads([]),
    busy: uploads.some((u) => u.status === 'uploading'),
    attachmentIds: uploads.flatMap((u) => (u.attachment ? [u.attachment.id] : [])),
  };
}
