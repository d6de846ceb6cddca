import type { Attachment } from '@btalk/contracts';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { tooLargeSentence, uploadFailureSentence } from '../../../components/files/uploadErrors.ts';
import { useServices } from '../../../services.tsx';

/** A file on its way into the next post. */
export interface PendingUpload {
  key: string;
  file: File;
  status: 'uploading' | 'done' | 'failed';
  attachment?: Attachment;
  /** Why it failed, as a sentence for the person. */
  error?: string;
}

/**
 * Uploads files as soon as they are picked, dropped or pasted; the post then names their ids. A file
 * over the largest size is refused here without sending it; every refusal is told in words.
 */
export function useAttachmentUploads(topicId: string) {
  const { api, config } = useServices();
  const { t, i18n } = useTranslation('attachments');
  const [uploads, setUploads] = useState<PendingUpload[]>([]);
  const add = useCallback(
    (files: readonly File[]) => {
      const update = (key: string, change: Partial<PendingUpload>) =>
        setUploads((all) => all.map((u) => (u.key === key ? { ...u, ...change } : u)));
      for (const file of files) {
        const key = crypto.randomUUID();
        const failed = (error: unknown) =>
          uploadFailureSentence(error, t, config.uploads, i18n.resolvedLanguage ?? 'en');
        if (file.size > config.uploads.maxBytes) {
          const error = tooLargeSentence(t, config.uploads, i18n.resolvedLanguage ?? 'en');
          setUploads((all) => [...all, { key, file, status: 'failed', error }]);
          continue;
        }
        setUploads((all) => [...all, { key, file, status: 'uploading' }]);
        api.attachments.upload(topicId, [file]).then(
          (res) => update(key, { status: 'done', attachment: res.attachments[0] }),
          (error: unknown) => update(key, { status: 'failed', error: failed(error) }),
        );
      }
    },
    [api, topicId, config.uploads, t, i18n],
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
