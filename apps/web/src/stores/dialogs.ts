import { createStore, useStore } from './createStore.ts';

/** Which layout an information dialog uses. */
export type InfoTemplate = 'message' | 'notification';

/** What an information dialog shows (SPEC.md section 3: template, title, text, icon, user_enable). */
export interface InfoDialogDetail {
  template: InfoTemplate;
  /** Title; the notification template has its own. */
  title?: string;
  text?: string;
  /** Name of an icon from the information dialog's icon set. */
  icon?: 'info' | 'success' | 'warning' | 'notifications';
  /** For the notification template: whether the person has already added the team-chat app. */
  user_enable?: boolean;
}

/** A question that needs a yes or no before an action goes ahead. */
export interface ConfirmDialogDetail {
  title: string;
  text: string;
  /** Label of the confirming button. */
  confirmLabel?: string;
}

/** The global dialog state: one store owns every overlay (SPEC.md section 3). */
export interface DialogState {
  show_info_dialog: boolean;
  info_dialog_detail: InfoDialogDetail | null;
  show_error_dialog: boolean;
  /** The error's message, or the error itself when it has none; a number is an HTTP or envelope code. */
  error_dialog_detail: string | number | null;
  show_loading_dialog: boolean;
  show_info_snack_dialog: boolean;
  info_snack_dialog_msg: string;
  show_spinner_dialog: boolean;
  show_confirm_dialog: boolean;
  confirm_dialog_detail: ConfirmDialogDetail | null;
}

const initial: DialogState = {
  show_info_dialog: false,
  info_dialog_detail: null,
  show_error_dialog: false,
  error_dialog_detail: null,
  show_loading_dialog: false,
  show_info_snack_dialog: false,
  info_snack_dialog_msg: '',
  show_spinner_dialog: false,
  show_confirm_dialog: false,
  confirm_dialog_detail: null,
};

/** The dialog store. Components read it with `useDialogs`; anything may call `dialogs`' actions. */
export const dialogStore = createStore<DialogState>(initial);

let answerConfirm: ((yes: boolean) => void) | null = null;

/** A progress overlay that long operations hold open: the spinner dialog or the loading dialog. */
export type ProgressOverlay = 'spinner' | 'loading';

// How many running operations hold each overlay: two at once keep it open until both finish.
const holders: Record<ProgressOverlay, number> = { spinner: 0, loading: 0 };

function showHeld() {
  dialogStore.setState({
    show_spinner_dialog: holders.spinner > 0,
    show_loading_dialog: holders.loading > 0,
  });
}

function settleConfirm(yes: boolean) {
  answerConfirm?.(yes);
  answerConfirm = null;
}

/** What an error shows: its message, or the error itself if it has no message (SPEC.md section 4). */
export function errorDetail(error: unknown): string | number {
  if (typeof error === 'number') return error;
  if (typeof error === 'object' && error !== null && 'message' in error) {
    const { message } = error as { message: unknown };
    if (typeof message === 'string' && message) return message;
  }
  return String(error);
}

/** Actions on the global dialogs. */
export const dialogs = {
  /** Shows the error dialog; it hides the loading and confirm dialogs (SPEC.md section 4). */
  showError(error: unknown) {
    settleConfirm(false);
    dialogStore.setState({
      show_error_dialog: true,
      error_dialog_detail: errorDetail(error),
      show_loading_dialog: false,
      show_confirm_dialog: false,
    });
  },
  dismissError() {
    dialogStore.setState({ show_error_dialog: false });
  },
  /** Shows the information dialog; it hides the loading and confirm dialogs. */
  showInfo(detail: InfoDialogDetail) {
    settleConfirm(false);
    dialogStore.setState({
      show_info_dialog: true,
      info_dialog_detail: detail,
      show_loading_dialog: false,
      show_confirm_dialog: false,
    });
  },
  /** The notification variant of the information dialog (SPEC.md section 4). */
  showNotificationInfo(userEnable: boolean) {
    dialogs.showInfo({ template: 'notification', icon: 'notifications', user_enable: userEnable });
  },
  closeInfo() {
    dialogStore.setState({ show_info_dialog: false });
  },
  setLoading(show: boolean) {
    dialogStore.setState({ show_loading_dialog: show });
  },
  /** Shows a short message in the snackbar (it hides itself after 5 seconds). */
  showSnack(message: string) {
    dialogStore.setState({ show_info_snack_dialog: true, info_snack_dialog_msg: message });
  },
  closeSnack() {
    dialogStore.setState({ show_info_snack_dialog: false });
  },
  setSpinner(show: boolean) {
    dialogStore.setState({ show_spinner_dialog: show });
  },
  /**
   * Shows a progress overlay while an operation runs; the answer releases it (once, however often it
   * is called). The overlay hides when the last holder releases it.
   */
  hold(overlay: ProgressOverlay): () => void {
    holders[overlay] += 1;
    showHeld();
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      holders[overlay] -= 1;
      showHeld();
    };
  },
  /** Asks a question; resolves true when confirmed, false when cancelled or replaced by another dialog. */
  confirm(detail: ConfirmDialogDetail): Promise<boolean> {
    settleConfirm(false);
    dialogStore.setState({ show_confirm_dialog: true, confirm_dialog_detail: detail });
    return new Promise((resolve) => {
      answerConfirm = resolve;
    });
  },
  answerConfirm(yes: boolean) {
    settleConfirm(yes);
    dialogStore.setState({ show_confirm_dialog: false });
  },
};

/** Reads a slice of the dialog state in a component. */
export function useDialogs<T>(select: (state: DialogState) => T): T {
  return useStore(dialogStore, select);
}
