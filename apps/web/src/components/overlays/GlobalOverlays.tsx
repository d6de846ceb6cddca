import { ConfirmDialog } from './ConfirmDialog.tsx';
import { ErrorDialog } from './ErrorDialog.tsx';
import { InfoDialog } from './InfoDialog.tsx';
import { InfoSnackbar } from './InfoSnackbar.tsx';
import { LoadingDialog } from './LoadingDialog.tsx';
import { NetworkErrorDialog } from './NetworkErrorDialog.tsx';
import { SpinnerDialog } from './SpinnerDialog.tsx';

/** The overlays present on every screen, beside the current view (SPEC.md section 2). */
export function GlobalOverlays({ teamsAppLink }: { teamsAppLink: string | null }) {
  return (
    <>
      <LoadingDialog />
      <SpinnerDialog />
      <ConfirmDialog />
      <InfoDialog teamsAppLink={teamsAppLink} />
      <ErrorDialog />
      <NetworkErrorDialog />
      <InfoSnackbar />
    </>
  );
}
