import WifiOff from '@mui/icons-material/WifiOff';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { dialogSlotProps } from './dialogPaper.ts';

function subscribe(onChange: () => void) {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

/** Whether the browser says it is online; follows its online and offline events. */
export function useOnline(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => navigator.onLine,
    () => true,
  );
}

/**
 * The network-error dialog: shown while the browser is offline, hidden when it is back (SPEC.md
 * section 4). It can be dismissed, like every dialog, so that what works offline (a call-tree answer,
 * which is queued) stays reachable; the next loss of connection shows it again.
 */
export function NetworkErrorDialog() {
  const { t } = useTranslation();
  const online = useOnline();
  const [dismissed, setDismissed] = useState(false);
  useEffect(() => {
    if (online) setDismissed(false);
  }, [online]);
  const close = () => setDismissed(true);
  return (
    <Dialog
      open={!online && !dismissed}
      onClose={close}
      slotProps={dialogSlotProps}
      aria-labelledby="offline-dialog-title"
    >
      <DialogTitle id="offline-dialog-title" sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <WifiOff color="warning" aria-hidden />
        {t('dialogs.offline.title')}
      </DialogTitle>
      <DialogContent>
        <DialogContentText>{t('dialogs.offline.text')}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{t('dialogs.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
