import type { Attachment } from '@btalk/contracts';
import BrokenImage from '@mui/icons-material/BrokenImage';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ButtonBase from '@mui/material/ButtonBase';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import Skeleton from '@mui/material/Skeleton';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../../../api/queryKeys.ts';
import { useServices } from '../../../services.tsx';
import { FileCard } from './FileCard.tsx';

/** An object URL for a blob, revoked when the blob changes or the component goes. */
function useObjectUrl(blob: Blob | undefined): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) return;
    const made = URL.createObjectURL(blob);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [blob]);
  return url;
}

/** An image attachment: fetched with the API's headers, shown inline, opened large on click. */
function ImageAttachment({ attachment }: { attachment: Attachment }) {
  const { t } = useTranslation('topic');
  const { api } = useServices();
  const [preview, setPreview] = useState(false);
  const image = useQuery({
    queryKey: queryKeys.attachment(attachment.id),
    queryFn: () => api.attachments.download(attachment.url),
    staleTime: Number.POSITIVE_INFINITY,
    meta: { silent: true },
  });
  const url = useObjectUrl(image.data);
  if (image.isError) {
    return (
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', color: 'text.secondary' }}>
        <BrokenImage /> {t('attachments.imageFailed', { name: attachment.fileName })}
      </Box>
    );
  }
  if (!url)
    return <Skeleton variant="rounded" width={240} height={160} aria-label={t('attachments.loading')} />;
  return (
    <>
      <ButtonBase
        onClick={() => setPreview(true)}
        aria-label={t('attachments.open', { name: attachment.fileName })}
        // A tiny picture (an icon, a 1-pixel image) still makes a button one can hit (WCAG 2.5.8).
        sx={{ minWidth: 24, minHeight: 24 }}
      >
        <Box
          component="img"
          src={url}
          alt={attachment.fileName}
          sx={{ maxWidth: '100%', maxHeight: 240, borderRadius: 1, display: 'block' }}
        />
      </ButtonBase>
      <Dialog open={preview} onClose={() => setPreview(false)} maxWidth="lg" aria-label={attachment.fileName}>
        <DialogContent sx={{ p: 1 }}>
          <Box
            component="img"
            src={url}
            alt={attachment.fileName}
            sx={{ maxWidth: '100%', display: 'block' }}
          />
        </DialogContent>
        <DialogActions>
          <Button component="a" href={url} download={attachment.fileName}>
            {t('attachments.download')}
          </Button>
          <Button onClick={() => setPreview(false)}>{t('close')}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

/** A post's attachments: images inline with a preview, other files as cards (a PDF opens in the browser's viewer). */
export function Attachments({ attachments }: { attachments: Attachment[] }) {
  if (attachments.length === 0) return null;
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 1 }}>
      {attachments.map((a) =>
        a.kind === 'image' ? (
          <ImageAttachment key={a.id} attachment={a} />
        ) : (
          <FileCard key={a.id} attachment={a} />
        ),
      )}
    </Box>
  );
}
