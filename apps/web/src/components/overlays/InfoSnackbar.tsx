import Button from '@mui/material/Button';
import Snackbar from '@mui/material/Snackbar';
import { useTranslation } from 'react-i18next';
import { dialogs, useDialogs } from '../../stores/dialogs.ts';

/** How long the snackbar stays, in milliseconds (SPEC.md section 9). */
export const SNACKBAR_TIMEOUT_MS = 5000;

/** The info snackbar: a short message with a Close action, gone after 5 seconds. */
export function InfoSnackbar() {
  const { t } = useTranslation();
  const open = useDialogs((s) => s.show_info_snack_dialog);
  const message = useDialogs((s) => s.info_snack_dialog_msg);
  return (
    <Snackbar
      open={open}
      message={message}
      autoHideDuration={SNACKBAR_TIMEOUT_MS}
      onClose={(_event, reason) => {
        // A click elsewhere on the page should not cut the message short.
        if (reason !== 'clickaway') dialogs.closeSnack();
      }}
      action={
        <Button color="secondary" size="small" onClick={dialogs.closeSnack}>
          {t('dialogs.close')}
        </Button>
      }
    />
  );
}
