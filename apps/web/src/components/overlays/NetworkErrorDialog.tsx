import type { CallEventSummary } from '@btalk/contracts';
import WifiOff from '@mui/icons-material/WifiOff';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { type QueryClient, QueryClientContext } from '@tanstack/react-query';
import { useCallback, useContext, useEffect, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { callTreeKeys } from '../../api/queryKeys.ts';
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
 * Whether the call-tree event banner is on screen with an event waiting for the person's answer: the
 * banner's pending list (`callTreeKeys.pending()`) holds an event and the banner watches it. Read from
 * the query cache only, never fetched from here.
 */
export function eventBannerWaiting(queryClient: QueryClient | undefined): boolean {
  const query = queryClient
    ?.getQueryCache()
    .find<CallEventSummary[]>({ queryKey: callTreeKeys.pending(), exact: true });
  return !!query && query.getObserversCount() > 0 && (query.state.data?.length ?? 0) > 0;
}

/** `eventBannerWaiting`, followed as the query cache changes. */
function useEventBannerWaiting(): boolean {
  const queryClient = useContext(QueryClientContext);
  const subscribe = useCallback(
    (onChange: () => void) => queryClient?.getQueryCache().subscribe(onChange) ?? (() => {}),
    [queryClient],
  );
  return useSyncExternalStore(
    subscribe,
    () => eventBannerWaiting(queryClient),
    () => false,
  );
}

/**
 * The network-error dialog: shown while the browser is offline, hidden when it is back (SPEC.md
 * section 4). It can be dismissed, like every dialog, so that what works offline (a call-tree answer,
 * which is queued) stays reachable; the next loss of connection shows it again. While an event waits
 * for the person's answer it never covers the banner: the banner shows the same message instead, in
 * the page (EventBanners' `OfflineNotice`), and Safe / Need help stay within reach.
 */
export function NetworkErrorDialog() {
  const { t } = useTranslation();
  const online = useOnline();
  const eventWaiting = useEventBannerWaiting();
  const [dismissed, setDismissed] = useState(false);
  useEffect(() => {
    if (online) setDismissed(false);
  }, [online]);
  const close = () => setDismissed(true);
  return (
    <Dialog
      open={!online && !dismissed && !eventWaiting}
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
