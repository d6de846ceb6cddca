import type { UploadAttachmentsResponse } from '@btalk/contracts';
import type { ApiClient } from './client.ts';

/** Attachments: uploaded before the post that names them; downloaded with the API's headers. */
export function attachmentsApi(client: ApiClient) {
  return {
    /** Uploads files to a topic (multipart); name the answered ids in the new post. */
    upload: (topicId: string, files: readonly File[]) => {
      const form = new FormData();
      for (const file of files) form.append('file', file, file.name);
      return client.postForm<UploadAttachmentsResponse>(
        `/topics/${encodeURIComponent(topicId)}/attachments`,
        form,
      );
    },
    /**
     * The file's content. Downloads need the x-api-key and bearer headers, so a plain `<img src>`
     * cannot load them: the caller shows the blob through an object URL.
     */
    download: (url: string) => client.blob(url.replace(/^\/api(?=\/)/, '')),
  };
}
