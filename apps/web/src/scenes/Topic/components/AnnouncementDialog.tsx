import type { Post } from '@btalk/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isErrorEnvelope } from '../../../api/errors.ts';
import { upsertPost } from '../../../api/postCache.ts';
import { useServices } from '../../../services.tsx';
import { dialogs } from '../../../stores/dialogs.ts';

/** The reminder delays the dialog offers, in minutes (none, 1 hour, 4 hours, 1 day, 3 days). */
export const REMINDER_CHOICES = [60, 240, 1440, 4320] as const;

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO time as a `datetime-local` input's value, on this device's clock. */
export function toLocalInput(iso: string): string {
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A `datetime-local` value (this device's clock) as an ISO time; null when empty or not a time. */
export function fromLocalInput(value: string): string | null {
  if (!value) return null;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

/**
 * "Request acknowledgement" (or, on an important post, "Change acknowledgement request"): urgent or
 * not, an optional due time, and when to remind those who have not acknowledged.
 */
export default function AnnouncementDialog({ post, onClose }: { post: Post; onClose: () => void }) {
  const { t } = useTranslation('announcements');
  const { api } = useServices();
  const queryClient = useQueryClient();
  const current = post.announcement;
  const [urgent, setUrgent] = useState(current?.urgent ?? false);
  const [due, setDue] = useState(current?.dueAt ? toLocalInput(current.dueAt) : '');
  const [reminder, setReminder] = useState(
    current?.remindAfterMinutes ? String(current.remindAfterMinutes) : '',
  );
  const [problem, setProblem] = useState<string | null>(null);
  const dueAt = fromLocalInput(due);
  const duePast = dueAt !== null && Date.parse(dueAt) <= Date.now();
  const choices: number[] = [...REMINDER_CHOICES];
  if (current?.remindAfterMinutes && !choices.includes(current.remindAfterMinutes))
    choices.push(current.remindAfterMinutes);

  const save = useMutation({
    mutationFn: () =>
      api.announcements.mark(post.id, {
        urgent,
        dueAt,
        remindAfterMinutes: reminder ? Number(reminder) : null,
      }),
    // A refusal (a due time the server finds past, a post no longer the caller's) is said in the dialog.
    meta: { silent: true },
    onSuccess: (saved) => {
      upsertPost(queryClient, saved);
      dialogs.showSnack(current ? t('dialog.saved') : t('dialog.requested'));
      onClose();
    },
    onError: (error) => {
      if (isErrorEnvelope(error)) setProblem(error.message);
      else dialogs.showError(error);
    },
  });

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="announcement-dialog-title">
      <DialogTitle id="announcement-dialog-title">
        {current ? t('dialog.changeTitle') : t('dialog.title')}
      </DialogTitle>
      <DialogContent>
        <Stack sx={{ gap: 2.5, pt: 0.5 }}>
          <Typography variant="body2" color="text.secondary">
            {t('dialog.intro')}
          </Typography>
          <div>
            <FormControlLabel
              control={
                <Switch
                  checked={urgent}
                  onChange={(e) => setUrgent(e.target.checked)}
                  slotProps={{ input: { 'aria-describedby': 'announcement-urgent-help' } }}
                />
              }
              label={t('dialog.urgent')}
            />
            <FormHelperText id="announcement-urgent-help" sx={{ mt: 0 }}>
              {t('dialog.urgentHelp')}
            </FormHelperText>
          </div>
          <TextField
            type="datetime-local"
            label={t('dialog.due')}
            value={due}
            onChange={(e) => setDue(e.target.value)}
            error={duePast}
            helperText={duePast ? t('dialog.duePast') : t('dialog.dueHelp')}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            select
            label={t('dialog.reminder')}
            value={reminder}
            onChange={(e) => setReminder(e.target.value)}
          >
            <MenuItem value="">{t('dialog.reminderNone')}</MenuItem>
            {choices.map((minutes) => (
              <MenuItem key={minutes} value={String(minutes)}>
                {REMINDER_CHOICES.includes(minutes as (typeof REMINDER_CHOICES)[number])
                  ? t(`dialog.reminder${minutes}`)
                  : t('dialog.reminderCustom', { count: minutes })}
              </MenuItem>
            ))}
          </TextField>
          {problem && (
            <Alert severity="error" role="alert">
              {problem}
            </Alert>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('dialog.cancel')}</Button>
        <Button
          variant="contained"
          loading={save.isPending}
          disabled={duePast}
          onClick={() => {
            setProblem(null);
            save.mutate();
          }}
        >
          {current ? t('dialog.save') : t('dialog.request')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
