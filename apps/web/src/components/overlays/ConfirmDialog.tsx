import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useTranslation } from 'react-i18next';
import { dialogs, useDialogs } from '../../stores/dialogs.ts';
import { dialogSlotProps } from './dialogPaper.ts';

/** The confirm-action dialog that `dialogs.confirm()` opens; an error or info dialog replaces it. */
export function ConfirmDialog() {
  const { t } = useTranslation();
  const open = useDialogs((s) => s.show_confirm_dialog);
  const detail = useDialogs((s) => s.confirm_dialog_detail);
  return (
    <Dialog
      open={open}
      slotProps={dialogSlotProps}
      onClose={() => dialogs.answerConfirm(false)}
      aria-labelledby="confirm-dialog-title"
    >
      <DialogTitle id="confirm-dialog-title">{detail?.title}</DialogTitle>
      <DialogContent>
        <DialogContentText>{detail?.text}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => dialogs.answerConfirm(false)}>{t('dialogs.cancel')}</Button>
        <Button variant="contained" onClick={() => dialogs.answerConfirm(true)}>
          {detail?.confirmLabel ?? t('dialogs.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
