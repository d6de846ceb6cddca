import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useDialogs } from '../../stores/dialogs.ts';
import { dialogSlotProps } from './dialogPaper.ts';

/** The loading dialog: "Loading..." with a progress bar (SPEC.md section 4). */
export function LoadingDialog() {
  const { t } = useTranslation();
  const open = useDialogs((s) => s.show_loading_dialog);
  return (
    <Dialog open={open} slotProps={dialogSlotProps} aria-labelledby="loading-dialog-title">
      <DialogContent>
        <Typography id="loading-dialog-title" sx={{ mb: 2 }}>
          {t('dialogs.loading')}
        </Typography>
        <LinearProgress aria-labelledby="loading-dialog-title" />
      </DialogContent>
    </Dialog>
  );
}
