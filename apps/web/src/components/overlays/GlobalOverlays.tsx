import { useState } from 'react';
import { type DialogState, useDialogs } from '../../stores/dialogs.ts';
import { lazyOnFirstUse } from '../lazyOnFirstUse.tsx';
import { NetworkErrorDialog } from './NetworkErrorDialog.tsx';

// Dialog, Snackbar and the progress indicators load the first time the store opens an overlay: most
// first screens show none (issue 14: at most 200 KB of JavaScript before the first screen).
const OverlayDialogs = lazyOnFirstUse(() => import('./OverlayDialogs.tsx'));

/** Whether the store asks for any overlay of the `OverlayDialogs` chunk. */
function anyShown(s: DialogState): boolean {
  return (
    s.show_info_dialog ||
    s.show_error_dialog ||
    s.show_loading_dialog ||
    s.show_info_snack_dialog ||
    s.show_spinner_dialog ||
    s.show_confirm_dialog
  );
}

/**
 * The overlays present on every screen, beside the current view (SPEC.md section 2). The offline
 * dialog is always here, since its chunk could not be fetched once the connection is gone.
 */
export function GlobalOverlays({ teamsAppLink }: { teamsAppLink: string | null }) {
  const shown = useDialogs(anyShown);
  // From the first overlay on they stay mounted, so that they also play their closing transitions.
  const [used, setUsed] = useState(false);
  if (shown && !used) setUsed(true);
  return (
    <>
      <NetworkErrorDialog />
      {used && <OverlayDialogs teamsAppLink={teamsAppLink} />}
    </>
  );
}
