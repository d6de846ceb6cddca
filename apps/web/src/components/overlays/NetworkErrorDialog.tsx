import type { CallEventSummary } from '@btalk/contracts';
import WifiOff from '@mui/icons-material/WifiOff';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { type QueryClient, QueryClientContext } from '@tanstack/react-query';
import { useCallback, useContext, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { callTreeKeys } from '../../api/queryKeys.ts';
import { DIALOG_WIDTH } from '../../theme/index.ts';

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
 * The offline dialog itself: the browser's own modal `<dialog>` (focus kept inside, the page behind
 * inert, Escape closes it), drawn as the other dialogs are. Not MUI's Dialog: the offline dialog is
 * on every first screen, since its code cannot be fetched once the connection is gone, and Dialog
 * would bring Modal and its transitions with it (issue 14).
 */
function OfflineDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    // jsdom has no showModal(): there the dialog is only opened.
    if (typeof dialog.showModal === 'function') dialog.showModal();
    else dialog.setAttribute('open', '');
    return () => {
      if (typeof dialog.close === 'function') dialog.close();
    };
  }, []);
  return (
    <Box
      component="dialog"
      ref={ref}
      aria-labelledby="offline-dialog-title"
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      sx={{
        width: DIALOG_WIDTH,
        maxWidth: 'calc(100% - 32px)',
        p: 0,
        border: 0,
        borderRadius: 1,
        boxShadow: 24,
        bgcolor: 'background.paper',
        color: 'text.primary',
        '&::backdrop': { bgcolor: 'rgba(0, 0, 0, 0.5)' },
      }}
    >
      <Typography
        id="offline-dialog-title"
        variant="h6"
        component="h2"
        sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 3, py: 2 }}
      >
        <WifiOff color="warning" aria-hidden />
        {t('dialogs.offline.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ px: 3, pb: 2.5 }}>
        {t('dialogs.offline.text')}
      </Typography>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', p: 1 }}>
        <Button onClick={onClose}>{t('dialogs.close')}</Button>
      </Box>
    </Box>
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
  const online = useOnline();
  const eventWaiting = useEventBannerWaiting();
  const [dismissed, setDismissed] = useState(false);
  useEffect(() => {
    if (online) setDismissed(false);
  }, [online]);
  if (online || dismissed || eventWaiting) return null;
  return <OfflineDialog onClose={() => setDismissed(true)} />;
}
