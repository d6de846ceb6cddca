import { beforeEach, describe, expect, it } from 'vitest';
import { dialogStore, dialogs, errorDetail } from './dialogs.ts';

const closed = { ...dialogStore.getState() };

beforeEach(() => {
  dialogStore.setState(closed);
});

describe('the dialog store', () => {
  it('shows an error with its message, or the error itself when it has none', () => {
    expect(errorDetail(new Error('Topic not found.'))).toBe('Topic not found.');
    expect(errorDetail({ code: 4040, message: 'No such topic.' })).toBe('No such topic.');
    expect(errorDetail(500)).toBe(500);
    expect(errorDetail('plain text')).toBe('plain text');
  });

  it('hides the loading and confirm dialogs when an error or info dialog is presented', async () => {
    dialogs.setLoading(true);
    const answer = dialogs.confirm({ title: 'Archive?', text: 'Archive this topic?' });
    dialogs.showError(new Error('boom'));
    expect(dialogStore.getState()).toMatchObject({
      show_error_dialog: true,
      error_dialog_detail: 'boom',
      show_loading_dialog: false,
      show_confirm_dialog: false,
    });
    await expect(answer).resolves.toBe(false);

    dialogs.setLoading(true);
    dialogs.showNotificationInfo(true);
    expect(dialogStore.getState()).toMatchObject({
      show_info_dialog: true,
      info_dialog_detail: { template: 'notification', user_enable: true },
      show_loading_dialog: false,
    });
  });

  it('resolves a confirmation with the answer', async () => {
    const answer = dialogs.confirm({ title: 'Archive?', text: 'Archive this topic?' });
    expect(dialogStore.getState().show_confirm_dialog).toBe(true);
    dialogs.answerConfirm(true);
    await expect(answer).resolves.toBe(true);
    expect(dialogStore.getState().show_confirm_dialog).toBe(false);
  });

  it('holds the snackbar message and the spinner flag', () => {
    dialogs.showSnack('Saved.');
    dialogs.setSpinner(true);
    expect(dialogStore.getState()).toMatchObject({
      show_info_snack_dialog: true,
      info_snack_dialog_msg: 'Saved.',
      show_spinner_dialog: true,
    });
    dialogs.closeSnack();
    dialogs.setSpinner(false);
    expect(dialogStore.getState()).toMatchObject({
      show_info_snack_dialog: false,
      show_spinner_dialog: false,
    });
  });
});
