import ErrorOutline from '@mui/icons-material/ErrorOutline';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useTranslation } from 'react-i18next';
import { dialogs, useDialogs } from '../../stores/dialogs.ts';
import { dialogSlotProps } from './dialogPaper.ts';

/** Whether an error detail is a code (an HTTP status or an envelope code) rather than a message. */
export function isNumericDetail(detail: string | number | null): boolean {
  return detail !== null && /^\d+$/.test(String(detail).trim());
}

/** The error dialog: persistent, closed only with Dismiss (SPEC.md sections 4 and 8). */
export function ErrorDialog() {
  const { t } = useTranslation();
  const open = useDialogs((s) => s.show_error_dialog);
  const detail = useDialogs((s) => s.error_dialog_detail);
  const numeric = isNumericDetail(detail);
  return (
    <Dialog open={open} slotProps={dialogSlotProps} aria-labelledby="error-dialog-title">
      <DialogTitle id="error-dialog-title" sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <ErrorOutline color="error" aria-hidden />
        {numeric ? t('dialogs.error.codeTitle', { code: String(detail).trim() }) : t('dialogs.error.title')}
      </DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ whiteSpace: 'pre-line' }}>
          {numeric ? t('dialogs.error.apology') : String(detail ?? '')}
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={dialogs.dismissError}>
          {t('dialogs.error.dismiss')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
