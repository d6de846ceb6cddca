import type { AnnouncementReport } from '@btalk/contracts';
import Campaign from '@mui/icons-material/Campaign';
import Download from '@mui/icons-material/Download';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { announcementKeys } from '../../../api/announcementKeys.ts';
import { isErrorEnvelope } from '../../../api/errors.ts';
import { downloadBlob } from '../../../components/download.ts';
import { fullTime } from '../../../components/time.ts';
import { useServices } from '../../../services.tsx';
import { dialogs } from '../../../stores/dialogs.ts';

/** This browser's time zone, for the CSV's local times (the server's default is the person's setting). */
function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}

/**
 * "Remind again" (confirmed first; the server's reason is shown when it is too soon) and "Download
 * CSV" (the server's file with the API's headers, saved as it is: the same rows as the list shows
 * with "Everyone").
 */
export function ReportActions({
  report,
  department,
  fileName,
}: {
  report: AnnouncementReport;
  department: string | undefined;
  fileName: string;
}) {
  const { t } = useTranslation('announcements');
  const { api } = useServices();
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string | null>(null);
  const remind = useMutation({
    mutationFn: () => api.announcements.remind(report.postId),
    meta: { silent: true },
    onSuccess: (result) => {
      dialogs.showSnack(t('report.reminded', { count: result.reminded }));
      void queryClient.invalidateQueries({ queryKey: announcementKeys.post(report.postId) });
    },
    onError: (error) => {
      // Too soon, or everyone has acknowledged: the server says why.
      if (isErrorEnvelope(error)) setProblem(error.message);
      else dialogs.showError(error);
    },
  });
  const download = useMutation({
    mutationFn: () => api.announcements.exportCsv(report.postId, { department }, browserTimeZone()),
    onSuccess: (csv) => downloadBlob(csv, fileName),
  });
  const askRemind = async () => {
    setProblem(null);
    const yes = await dialogs.confirm({
      title: t('report.remindTitle'),
      text: t('report.remindText', { count: report.announcement.totals.notYet }),
      confirmLabel: t('report.remind'),
    });
    if (yes) remind.mutate();
  };
  return (
    <Stack sx={{ gap: 1, mb: 3 }}>
      <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap' }}>
        <Button
          variant="outlined"
          startIcon={<Campaign />}
          disabled={!report.canRemind || remind.isPending}
          aria-describedby="remind-help"
          onClick={askRemind}
        >
          {t('report.remind')}
        </Button>
        <Button
          variant="outlined"
          startIcon={<Download />}
          loading={download.isPending}
          onClick={() => download.mutate()}
        >
          {t('report.download')}
        </Button>
      </Stack>
      <Typography id="remind-help" variant="body2" color="text.secondary">
        {report.remindedAt && `${t('report.remindedAt', { time: fullTime(report.remindedAt) })}. `}
        {!report.canRemind && t('report.remindLater')}
      </Typography>
      {problem && (
        <Alert severity="warning" role="alert" onClose={() => setProblem(null)}>
          {problem}
        </Alert>
      )}
    </Stack>
  );
}
