import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useDialogs } from '../../stores/dialogs.ts';
import { dialogSlotProps } from './dialogPaper.ts';

/** The spinner dialog: persistent, "Please wait a moment..." (SPEC.md section 4). */
export function SpinnerDialog() {
  const { t } = useTranslation();
  const open = useDialogs((s) => s.show_spinner_dialog);
  return (
    <Dialog open={open} slotProps={dialogSlotProps} aria-labelledby="spinner-dialog-title">
      <DialogContent sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
        <CircularProgress size={28} aria-labelledby="spinner-dialog-title" />
        <Typography id="spinner-dialog-title">{t('dialogs.spinner')}</Typography>
      </DialogContent>
    </Dialog>
  );
}
