import type { Attachment } from '@btalk/contracts';
import Description from '@mui/icons-material/Description';
import Download from '@mui/icons-material/Download';
import FolderZip from '@mui/icons-material/FolderZip';
import InsertDriveFile from '@mui/icons-material/InsertDriveFile';
import OpenInNew from '@mui/icons-material/OpenInNew';
import PictureAsPdf from '@mui/icons-material/PictureAsPdf';
import Slideshow from '@mui/icons-material/Slideshow';
import TableChart from '@mui/icons-material/TableChart';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { type ComponentType, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type FileKind, fileKind, formatFileSize } from '../../../components/files/fileFacts.ts';
import { useServices } from '../../../services.tsx';
import { dialogs } from '../../../stores/dialogs.ts';

const ICONS: Record<FileKind, ComponentType<{ fontSize?: 'large'; sx?: object }>> = {
  pdf: PictureAsPdf,
  document: Description,
  spreadsheet: TableChart,
  presentation: Slideshow,
  archive: FolderZip,
  other: InsertDriveFile,
};

const ICON_COLOURS: Record<FileKind, string> = {
  pdf: '#C62828',
  document: '#1565C0',
  spreadsheet: '#2E7D32',
  presentation: '#E65100',
  archive: '#6D4C41',
  other: 'text.secondary',
};

/** Hands a blob to the browser as a download under `fileName`. */
function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * A file that is not a picture, as a card: an icon of its kind, its name, the kind and the size in
 * the reader's words, and "Download"; a PDF also "Open", in a new tab with the browser's own viewer.
 * Files are fetched with the API's headers (a plain link would carry no session), so the tab shows
 * the fetched PDF: the tab is opened at the click (a tab opened after a request would be blocked).
 */
export function FileCard({ attachment }: { attachment: Attachment }) {
  const { t, i18n } = useTranslation('attachments');
  const { api } = useServices();
  const [busy, setBusy] = useState<'open' | 'download' | null>(null);
  const kind = fileKind(attachment);
  const Icon = ICONS[kind];
  const size = formatFileSize(attachment.sizeBytes, i18n.resolvedLanguage ?? 'en');
  const name = attachment.fileName;

  const download = async () => {
    setBusy('download');
    try {
      saveBlob(await api.attachments.download(attachment.url), name);
    } catch (error) {
      dialogs.showError(error);
    } finally {
      setBusy(null);
    }
  };

  const open = async () => {
    const tab = window.open('', '_blank');
    // The tab gets no hold on this page.
    if (tab) tab.opener = null;
    setBusy('open');
    try {
      const blob = await api.attachments.download(attachment.url);
      // The server said PDF from the content; the blob keeps that type, so the tab shows the viewer.
      const pdf = blob.type === 'application/pdf' ? blob : new Blob([blob], { type: 'application/pdf' });
      const url = URL.createObjectURL(pdf);
      if (tab) {
        tab.location.href = url;
      } else {
        dialogs.showSnack(t('openBlocked'));
        saveBlob(pdf, name);
      }
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (error) {
      tab?.close();
      dialogs.showError(error);
    } finally {
      setBusy(null);
    }
  };

  return (
    <Paper
      variant="outlined"
      role="group"
      aria-label={t('card', { name, kind: t(`kinds.${kind}`), size })}
      sx={{ display: 'flex', alignItems: 'center', gap: 1.5, p: 1.5, maxWidth: 420, minWidth: 0 }}
    >
      <Icon fontSize="large" sx={{ color: ICON_COLOURS[kind], flexShrink: 0 }} />
      <Box sx={{ minWidth: 0, flexGrow: 1 }}>
        <Typography variant="body2" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
          {name}
        </Typography>
        <Typography variant="caption" color="text.secondary">
          {t(`kinds.${kind}`)} · {size}
        </Typography>
      </Box>
      <Box sx={{ display: 'flex', gap: 0.5, flexShrink: 0 }}>
        {kind === 'pdf' && (
          <Button
            size="small"
            startIcon={<OpenInNew />}
            onClick={() => void open()}
            loading={busy === 'open'}
            aria-label={t('openFile', { name })}
          >
            {t('open')}
          </Button>
        )}
        <Button
          size="small"
          startIcon={<Download />}
          onClick={() => void download()}
          loading={busy === 'download'}
          aria-label={t('downloadFile', { name })}
        >
          {t('download')}
        </Button>
      </Box>
    </Paper>
  );
}
