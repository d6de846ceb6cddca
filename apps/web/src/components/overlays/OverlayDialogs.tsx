import { ConfirmDialog } from './ConfirmDialog.tsx';
import { ErrorDialog } from './ErrorDialog.tsx';
import { InfoDialog } from './InfoDialog.tsx';
import { InfoSnackbar } from './InfoSnackbar.tsx';
import { LoadingDialog } from './LoadingDialog.tsx';
import { SpinnerDialog } from './SpinnerDialog.tsx';

/**
 * The overlays that the dialog store opens (SPEC.md section 3): one chunk, loaded by
 * `GlobalOverlays` the first time one of them is asked for, then kept mounted.
 */
export default function OverlayDialogs({ teamsAppLink }: { teamsAppLink: string | null }) {
  return (
    <>
      <LoadingDialog />
      <SpinnerDialog />
      <ConfirmDialog />
      <InfoDialog teamsAppLink={teamsAppLink} />
      <ErrorDialog />
      <InfoSnackbar />
    </>
  );
}
